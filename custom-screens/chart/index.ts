// Public surface of the patient chart (issue 15): the chart frame under /Patient/{id} and /onboarding.
export { ChartPage } from './ChartPage';
export { OnboardingPage } from './onboarding/OnboardingPage';
export { PatientSummary, type PatientSummaryProps } from './summary';
// The visit note's Required actions says, as the chart does, which open tasks it leaves out.
export { FormlessTasksLine } from './FormlessTasksLine';
export { useFormlessTasksWords } from './useFormlessTasksWords';
