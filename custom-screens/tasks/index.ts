// Public surface of custom-screens/tasks (app-spec §2.4, §4, §7).
export { TaskPage } from './TaskPage';
export { MyTasksPage } from './MyTasksPage';
export { ResourceTasks } from './ResourceTasks';
// Shared with the visit note, which also replaces a long form with a confirmation.
export { useReturnToTop } from './useReturnToTop';
