import { Alert } from '@mui/material';
import type { Patient } from '@medplum/fhirtypes';
import { useChartPatient } from '../chartPatient';
import { useChartViewer } from '../chartViewer';
import { deceasedNoticeShown } from './deceasedNoticeShown';
import { tasksLeftOpenWords } from './tasksLeftOpenWords';
import { useOpenTaskCount } from './useOpenTaskCount';

function DeceasedPatientTasksLine({ patient }: { patient: Patient }) {
  const tasks = useOpenTaskCount(patient.id ?? '');
  const line = tasksLeftOpenWords(tasks.count);
  if (!line) return null;
  return (
    <Alert
      // Announced politely, as the notice is: read on arriving at the tab, not as an alarm.
      role="status"
      // Amber, as the notice is while something is open.
      severity="warning"
      data-deceased-tasks-line
      sx={{ mb: 1, py: 0 }}
    >
      {line}
    </Alert>
  );
}

/**
 * Above the Tasks tab's list of a patient who has died, while some of their tasks are open: asks to
 * close those no longer needed (not closing them: some are the death's own paperwork). Shown to whom
 * the notice is. A living patient's tab asks nothing more of the summary's searches.
 */
export function DeceasedTasksLine({ patientId }: { patientId: string }) {
  const patient = useChartPatient();
  const { patientView } = useChartViewer();
  // The chart's patient must be the one listed: mid-navigation the tab may show another's tasks.
  if (!patient || patient.id !== patientId || !deceasedNoticeShown(patient, patientView)) return null;
  return <DeceasedPatientTasksLine patient={patient} />;
}
