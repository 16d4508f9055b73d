// Public surface of the react-admin providers (issue #6).
export {
  createFhirAuthProvider,
  SignInStepRequired,
  type FhirAuthProviderOptions,
  type FhirLoginParams,
  type FhirPermissions,
  type SignInStep,
} from './fhirAuthProvider';
export { createFhirDataProvider, type FhirDataProvider, type FhirDataProviderOptions } from './fhirDataProvider';
export {
  createFhirCustomMethods,
  type ExecuteBotParams,
  type FhirCustomMethods,
  type PatchParams,
} from './fhirCustomMethods';
export { defaultTextSearchParameter, filterPairs, type FilterValue, type ModelFilter } from './filterParameters';
export { outcomeOfHttpError, toHttpError, withHttpErrors, type OutcomeErrorBody } from './httpErrors';
export { bundleRecords, listResult, listSearchQuery, type ListResultMeta, type ListSearchMeta } from './listSearch';
export { canAccessResource, interactionOfAction } from './raAccess';
export { toRecord, toResource, type FhirRecord } from './raRecord';
export { sortParameter, type SortParameterMap } from './sortParameter';
