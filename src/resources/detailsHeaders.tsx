import { lazy, Suspense, type ComponentType } from 'react';
import { Divider } from '@mui/material';
import type { Appointment, DiagnosticReport, QuestionnaireResponse, Resource } from '@medplum/fhirtypes';
import { QuestionnaireResponseView } from '../questionnaire/QuestionnaireResponseView';
import { DiagnosticReportView } from './DiagnosticReportView';

// The front desk's actions above an appointment (custom-screens/scheduling), loaded only when one opens.
const AppointmentActions = lazy(() =>
  import('../../custom-screens/scheduling').then((m) => ({ default: m.AppointmentActions })),
);

type DetailsHeader = ComponentType<{ resource: Resource }>;

/**
 * What the Details tab shows above the element list for types a person reads differently from
 * their elements: the actions of an appointment, a report's results as a table, a questionnaire
 * response as a note. One entry per type, so the tab itself stays generic.
 */
const detailsHeaders: Readonly<Record<string, DetailsHeader>> = {
  Appointment: (props) => (
    <Suspense fallback={null}>
      <AppointmentActions appointment={props.resource as Appointment} />
    </Suspense>
  ),
  DiagnosticReport: (props) => (
    <>
      <DiagnosticReportView report={props.resource as DiagnosticReport} />
      <Divider sx={{ my: 2 }} />
    </>
  ),
  QuestionnaireResponse: (props) => (
    <>
      <QuestionnaireResponseView response={props.resource as QuestionnaireResponse} />
      <Divider sx={{ my: 2 }} />
    </>
  ),
};

/** The header of a type's Details tab, or undefined when its elements say it all. */
export function detailsHeaderFor(resourceType: string): DetailsHeader | undefined {
  return Object.hasOwn(detailsHeaders, resourceType) ? detailsHeaders[resourceType] : undefined;
}
