import { Alert } from '@mui/material';
import { formlessTasksWords, openTaskCounts } from './summary/rules/openTasks';
import { SUMMARY_COUNT } from './summary/summaryQueries';
import { usePatientSummaryData } from './summary/usePatientSummaryData';

/**
 * Above the Tasks tab's list, while some open tasks have no form to act on: says that the visit
 * note's Required actions (app-spec §4: tasks with a focus) leaves them out, so that its count and
 * this tab's do not seem to disagree. From the header's own search (shared by key, no request).
 */
export function FormlessTasksLine({ patientId }: { patientId: string }) {
  const tasks = usePatientSummaryData(patientId).openTasks;
  if (!tasks || tasks.loading || tasks.error) return null;
  const words = formlessTasksWords(openTaskCounts(tasks.items, SUMMARY_COUNT));
  if (!words) return null;
  return (
    <Alert role="status" severity="info" data-formless-tasks-line sx={{ mb: 1, py: 0 }}>
      {words.tasksTab}
    </Alert>
  );
}
