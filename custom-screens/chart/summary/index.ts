// Public surface of the chart's patient summary sidebar (app-spec §2.7).
export { PatientSummary, PATIENT_SUMMARY_WIDTH, type PatientSummaryProps } from './PatientSummary';
export { summarySearches, SUMMARY_COUNT } from './summaryQueries';
// The frame starts these searches beside its patient read so the chart opens in one batched round trip.
export { usePatientSummaryData, type PatientSummaryData } from './usePatientSummaryData';
