// Public surface of custom-screens/tasks (being built in this session; see /work/clinical-contract.md).
export { TaskPage } from './TaskPage';
export { MyTasksPage } from './MyTasksPage';
