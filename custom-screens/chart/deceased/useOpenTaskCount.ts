import { openTaskCounts } from '../summary/rules/openTasks';
import { SUMMARY_COUNT } from '../summary/summaryQueries';
import { usePatientSummaryData } from '../summary/usePatientSummaryData';
import type { OpenCount } from './stillOpenWords';

export interface OpenTaskCount {
  loading: boolean;
  /** Undefined while loading, after a failed search, or for a caller who may not search tasks. */
  count?: OpenCount;
}

/**
 * The patient's open tasks, counted as the chart header counts them: from the header's own search
 * (shared by key, no request of its own), with the same open statuses.
 */
export function useOpenTaskCount(patientId: string): OpenTaskCount {
  const tasks = usePatientSummaryData(patientId).openTasks;
  if (!tasks) return { loading: false };
  if (tasks.loading || tasks.error) return { loading: tasks.loading };
  const { open, capped } = openTaskCounts(tasks.items, SUMMARY_COUNT);
  return { loading: false, count: { count: open, capped } };
}
