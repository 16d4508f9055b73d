import type { Patient } from '@medplum/fhirtypes';
import { PatientSummary } from './summary';
import { chartPath } from './chartPaths';

/** The chart's left column: the patient summary (app-spec §2.7) with its links into the chart's tabs. */
export function ChartSidebar({ patient, compact = false }: { patient: Patient; compact?: boolean }) {
  const id = patient.id as string;
  return (
    <PatientSummary
      patient={patient}
      appointmentsHref={chartPath(id, 'Appointment')}
      visitsHref={chartPath(id, 'Encounter')}
      tasksHref={chartPath(id, 'Task')}
      compact={compact}
    />
  );
}
