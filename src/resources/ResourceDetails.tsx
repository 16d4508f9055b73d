import { lazy, Suspense } from 'react';
import { Alert, Box, CircularProgress, Divider } from '@mui/material';
import type { Appointment, DiagnosticReport, QuestionnaireResponse, Resource } from '@medplum/fhirtypes';
import { hiddenFieldsFor } from '../../data-provider/access';
import { ElementList } from '../datatypes/ValueDisplay';
import { QuestionnaireResponseView } from '../questionnaire/QuestionnaireResponseView';
import { DiagnosticReportView } from './DiagnosticReportView';
import { useTypeSchema } from './schemaHooks';
import { childElements, typeElementsFirst } from './typeSchema';
import { useFhirClient } from './useFhirClient';

// The front desk's actions above an appointment (custom-screens/scheduling), loaded only when one opens.
const AppointmentActions = lazy(() =>
  import('../../custom-screens/scheduling').then((m) => ({ default: m.AppointmentActions })),
);

/** The Details tab: every present element, formatted by its type; hidden fields absent. */
export function ResourceDetails(props: { resource: Resource }) {
  const client = useFhirClient();
  const schema = useTypeSchema(props.resource.resourceType);
  if (schema.error) return <Alert severity="error">{schema.error.message}</Alert>;
  if (!schema.data) return <CircularProgress aria-label="Loading..." />;
  const hidden = hiddenFieldsFor(client.getAccessPolicy(), props.resource.resourceType);
  return (
    <Box>
      {props.resource.resourceType === 'Appointment' && (
        <Suspense fallback={null}>
          <AppointmentActions appointment={props.resource as Appointment} />
        </Suspense>
      )}
      {props.resource.resourceType === 'DiagnosticReport' && (
        <>
          <DiagnosticReportView report={props.resource as DiagnosticReport} />
          <Divider sx={{ my: 2 }} />
        </>
      )}
      {props.resource.resourceType === 'QuestionnaireResponse' && (
        <>
          <QuestionnaireResponseView response={props.resource as QuestionnaireResponse} />
          <Divider sx={{ my: 2 }} />
        </>
      )}
      <ElementList
        elements={typeElementsFirst(childElements(schema.data, ''))}
        value={props.resource as unknown as Record<string, unknown>}
        schema={schema.data}
        hidden={hidden}
      />
    </Box>
  );
}
