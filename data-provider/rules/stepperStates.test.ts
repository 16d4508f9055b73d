import { describe, expect, it } from 'vitest';
import { getStepState, getStepStates } from './stepperStates';

describe('stepper step states', () => {
  it('mark earlier steps completed, the active one in progress, later ones inactive', () => {
    expect(getStepState(0, 2)).toBe('completed');
    expect(getStepState(2, 2)).toBe('in-progress');
    expect(getStepState(3, 2)).toBe('inactive');
    expect(getStepStates(4, 1)).toEqual(['completed', 'in-progress', 'inactive', 'inactive']);
  });
  it('mark every step completed once the active index is past the end', () => {
    expect(getStepStates(3, 3)).toEqual(['completed', 'completed', 'completed']);
  });
  it('start with the first step in progress', () => {
    expect(getStepStates(2, 0)).toEqual(['in-progress', 'inactive']);
  });
});
