// Public surface of the chart's patient summary sidebar (app-spec §2.7).
export { PatientSummary, PATIENT_SUMMARY_WIDTH, type PatientSummaryProps } from './PatientSummary';
export { summarySearches, SUMMARY_COUNT } from './summaryQueries';
