/** State of one step of a stepper (spec §4): steps before the active one are done, later ones not yet started. */
export type StepState = 'completed' | 'in-progress' | 'inactive';

export function getStepState(stepIndex: number, activeIndex: number): StepState {
  if (stepIndex < activeIndex) return 'completed';
  if (stepIndex === activeIndex) return 'in-progress';
  return 'inactive';
}

/** The states of all steps of a stepper with `stepCount` steps. */
export function getStepStates(stepCount: number, activeIndex: number): StepState[] {
  return Array.from({ length: stepCount }, (_, index) => getStepState(index, activeIndex));
}
