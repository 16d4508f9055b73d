// Public surface of the generic resource console screens (app-spec §2.2, §2.8, §2.9).
export { resourceRoutes, resourceRouteList } from './routes';
export { FhirClientContext, useFhirClient } from './useFhirClient';
export { ResourcePathsContext, consoleResourcePaths, useResourcePaths, type ResourcePaths } from './resourcePaths';
export { ResourceForm, type ResourceFormProps } from './ResourceForm';
export { ResourceDetails } from './ResourceDetails';
export { ResourceHistory } from './ResourceHistory';
export { DiagnosticReportView, isCritical, CRITICAL_INTERPRETATIONS } from './DiagnosticReportView';
export {
  loadTypeSchema,
  loadProfileSchema,
  loadSearchParameters,
  type TypeSchema,
  type ElementSchema,
} from './typeSchema';
