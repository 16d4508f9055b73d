import type { AccessPolicy, Task } from '@medplum/fhirtypes';
import { canReadResourceType } from '../../../../data-provider/access';
import { OPEN_TASK_STATUSES } from '../../../tasks/myTaskRules';
import { dueDateState } from '../../../tasks/taskDueDate';

/** The header's "what must I do": the patient's open tasks and how many of them are overdue. */
export interface OpenTaskCounts {
  open: number;
  overdue: number;
  /** As many tasks came as were asked for: there may be more, so both counts are "at least". */
  capped: boolean;
}

const open: ReadonlySet<string> = new Set(OPEN_TASK_STATUSES);

/** Counts the loaded tasks that are open, and those due before today (the task screens' due rule). */
export function openTaskCounts(tasks: readonly Task[], asked: number, today: Date = new Date()): OpenTaskCounts {
  const openTasks = tasks.filter((task) => open.has(task.status));
  return {
    open: openTasks.length,
    overdue: openTasks.filter((task) => dueDateState(task.restriction?.period?.end, today) === 'overdue').length,
    capped: tasks.length >= asked,
  };
}

export interface TaskCaller {
  policy: AccessPolicy | undefined;
  superAdmin: boolean;
  /** The signed-in profile's type: a patient reading their own chart has no Tasks tab to go to. */
  profileType: string | undefined;
}

/** Whether the summary asks for the open tasks at all: a search the policy refuses would fail on every chart. */
export function mayCountOpenTasks(caller: TaskCaller): boolean {
  if (caller.profileType === 'Patient') return false;
  return caller.superAdmin || canReadResourceType(caller.policy, 'Task');
}
