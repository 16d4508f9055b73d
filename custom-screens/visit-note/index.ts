// Public surface of custom-screens/visit-note (being built in this session; see /work/clinical-contract.md).
export { VisitNotePage } from './VisitNotePage';
