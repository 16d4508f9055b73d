import { formlessTasksWords, openTaskCounts, type FormlessTasksWords } from './summary/rules/openTasks';
import { SUMMARY_COUNT } from './summary/summaryQueries';
import { usePatientSummaryData } from './summary/usePatientSummaryData';
import { useChartViewer } from './chartViewer';
import { useChartTabs } from './useChartTabs';

/** The chart tab where the visit note, and its Required actions, is (config/clinical/chartTabs.ts). */
const VISIT_NOTE_TAB_PATH = 'encounter';

/**
 * Whether the signed-in viewer can open the visit note's Required actions: the chart offers them
 * its Encounter tab (their role's tabs, less what their access policy would refuse).
 */
export function useSeesRequiredActions(): boolean {
  const { patientView } = useChartViewer();
  // E-prescribing adds only its own tab: it does not change whether the Encounter tab is offered.
  return useChartTabs({ ePrescribing: false, patientView }).some((tab) => tab.path === VISIT_NOTE_TAB_PATH);
}

/**
 * Why the chart header's open-task count and the visit note's Required actions differ, from the
 * header's own task search (shared by key: no request of its own in the chart). Undefined while it
 * loads, when it failed, for a caller who may not count tasks, when every open task has a form, and
 * for a viewer who cannot open Required actions (the front desk): nothing differs for them.
 */
export function useFormlessTasksWords(patientId: string): FormlessTasksWords | undefined {
  const tasks = usePatientSummaryData(patientId).openTasks;
  const seesRequiredActions = useSeesRequiredActions();
  if (!tasks || tasks.loading || tasks.error) return undefined;
  return formlessTasksWords(openTaskCounts(tasks.items, SUMMARY_COUNT), { seesRequiredActions });
}
