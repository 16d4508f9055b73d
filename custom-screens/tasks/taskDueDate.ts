/** How urgent a due date is, for highlighting: overdue (before today), today, soon (within 3 days), later or none. */
export type DueDateState = 'overdue' | 'today' | 'soon' | 'later' | 'none';

const DAY_MS = 86_400_000;

/** `today` is injectable so the rule can be tested; dates compare as calendar days in the viewer's zone. */
export function dueDateState(due: string | undefined, today: Date = new Date()): DueDateState {
  if (!due) return 'none';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(due);
  if (!match) return 'none';
  const dueDay = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const todayDay = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  const days = Math.round((dueDay - todayDay) / DAY_MS);
  if (days < 0) return 'overdue';
  if (days === 0) return 'today';
  if (days <= 3) return 'soon';
  return 'later';
}

/**
 * Statuses in which a task is finished: its due date is history, never overdue. Wider than
 * CLOSED_TASK_STATUSES (the spec's open-task list, §4, names only three): a cancelled or
 * mistaken task is not late either.
 */
export const FINISHED_TASK_STATUSES = ['completed', 'cancelled', 'rejected', 'failed', 'entered-in-error'] as const;

/** A task's due-date state: `finished` (shown plainly) once the task is done with, else as `dueDateState`. */
export type TaskDueState = DueDateState | 'finished';

export function taskDueState(due: string | undefined, status: string | undefined, today?: Date): TaskDueState {
  const state = dueDateState(due, today);
  if (state === 'none') return state;
  return (FINISHED_TASK_STATUSES as readonly string[]).includes(status ?? '') ? 'finished' : state;
}
