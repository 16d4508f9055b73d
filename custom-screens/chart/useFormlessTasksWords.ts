import { formlessTasksWords, openTaskCounts, type FormlessTasksWords } from './summary/rules/openTasks';
import { SUMMARY_COUNT } from './summary/summaryQueries';
import { usePatientSummaryData } from './summary/usePatientSummaryData';

/**
 * Why the chart header's open-task count and the visit note's Required actions differ, from the
 * header's own task search (shared by key: no request of its own in the chart). Undefined while it
 * loads, when it failed, for a caller who may not count tasks, and when every open task has a form.
 */
export function useFormlessTasksWords(patientId: string): FormlessTasksWords | undefined {
  const tasks = usePatientSummaryData(patientId).openTasks;
  if (!tasks || tasks.loading || tasks.error) return undefined;
  return formlessTasksWords(openTaskCounts(tasks.items, SUMMARY_COUNT));
}
