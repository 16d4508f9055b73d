export { memberRows, type MemberRow } from './memberRows';
