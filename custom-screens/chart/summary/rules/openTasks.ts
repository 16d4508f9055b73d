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
  /**
   * Open tasks with no focus (no note, questionnaire, report or care plan to act on). The visit
   * note's Required actions lists only tasks with a focus (app-spec §4: the open-task list), so
   * these are in the header's count and the Tasks tab but not there.
   */
  withoutForm: number;
}

const open: ReadonlySet<string> = new Set(OPEN_TASK_STATUSES);

/** Counts the loaded tasks that are open, and those due before today (the task screens' due rule). */
export function openTaskCounts(tasks: readonly Task[], asked: number, today: Date = new Date()): OpenTaskCounts {
  const openTasks = tasks.filter((task) => open.has(task.status));
  return {
    open: openTasks.length,
    overdue: openTasks.filter((task) => dueDateState(task.restriction?.period?.end, today) === 'overdue').length,
    capped: tasks.length >= asked,
    withoutForm: openTasks.filter((task) => !task.focus).length,
  };
}

const tasksWord = (count: number) => `${count} open ${count === 1 ? 'task' : 'tasks'}`;

/** The same fact in the words of each place it is read (`FormlessTasksLine`, `OpenTasksLink`). */
export interface FormlessTasksWords {
  header: string;
  tasksTab: string;
  /** Under the visit note's Required actions, followed by a link to the Tasks tab. */
  requiredActions: string;
}

/** Who reads the words: whether the Required actions they compare with is one they can open. */
export interface FormlessTasksReader {
  /**
   * The reader may open the chart's Encounter tab (the visit note, where Required actions is). The
   * front desk's policy hides it: to them the line would point at a list they never see.
   */
  seesRequiredActions: boolean;
}

const READS_REQUIRED_ACTIONS: FormlessTasksReader = { seesRequiredActions: true };

/**
 * Why the counts differ, in words, where tasks without a form are open: under the header's count
 * ("Required actions shows the 3 with a form; 1 more has none"), above the Tasks tab's list, and
 * under Required actions itself ("1 more open task has no form"). Undefined when every open task
 * has a form (the counts agree), and for a reader who cannot open Required actions: for them no
 * second count disagrees with the header's, and every open task is on the Tasks tab.
 */
export function formlessTasksWords(
  counts: OpenTaskCounts | undefined,
  reader: FormlessTasksReader = READS_REQUIRED_ACTIONS,
): FormlessTasksWords | undefined {
  if (!reader.seesRequiredActions) return undefined;
  if (!counts || counts.withoutForm === 0 || counts.open === 0) return undefined;
  const withForm = counts.open - counts.withoutForm;
  const without = counts.withoutForm;
  const more = `${without} ${withForm > 0 ? 'more ' : ''}${without === 1 ? 'has' : 'have'} no form`;
  return {
    header:
      withForm > 0
        ? `Required actions (Encounter) shows the ${withForm} with a form; ${more}`
        : `None has a form, so Required actions (Encounter) is empty`,
    tasksTab:
      `The Encounter tab's Required actions lists only open tasks with a form to act on (${withForm} of ` +
      `${counts.open}${counts.capped ? '+' : ''}): ${tasksWord(without)} without a form ${without === 1 ? 'is' : 'are'} listed here only.`,
    requiredActions: `${without} ${withForm > 0 ? 'more ' : ''}open ${without === 1 ? 'task has' : 'tasks have'} no form`,
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
