/** Task statuses the clinical screens work with (app-spec §4). */
export const TASK_STATUSES = ['ready', 'in-progress', 'on-hold', 'completed', 'failed', 'rejected'] as const;
export type TaskStatusValue = (typeof TASK_STATUSES)[number];

/** A task in one of these is finished: it leaves the open-task list and the header's count. */
export const CLOSED_TASK_STATUSES = ['completed', 'failed', 'rejected'] as const;

export function isClosedTaskStatus(status: string | undefined): boolean {
  return (CLOSED_TASK_STATUSES as readonly (string | undefined)[]).includes(status);
}
