// Public surface of the generic search list (app-spec §2.6).
export { SearchControl, type SearchControlProps } from './SearchControl';
export { SearchListPage } from './SearchListPage';
export { PatientHomePage } from './PatientHomePage';
export { resourceLink, referencedPatientId } from './rowLink';
export * from './searchState';
