import { describe, expect, it } from 'vitest';
import { InvariantBudgetExceeded } from '../../schema-engine/validation/invariants';
import { invariantRunner } from './invariantBudget';

describe('invariantRunner', () => {
  it('answers what the evaluation answers while time is left', () => {
    const run = invariantRunner(500);
    expect(run(() => [true])).toEqual([true]);
    expect(() => run(() => JSON.parse('{'))).toThrow(SyntaxError);
  });

  it('interrupts an evaluation that runs past the budget, then refuses every further one', () => {
    const run = invariantRunner(50);
    const started = performance.now();
    expect(() =>
      run(() => {
        for (;;) {
          // An evaluation that never ends (an exponential expression, in practice).
        }
      }),
    ).toThrow(InvariantBudgetExceeded);
    expect(performance.now() - started).toBeLessThan(5_000);
    let called = false;
    expect(() =>
      run(() => {
        called = true;
        return [];
      }),
    ).toThrow(InvariantBudgetExceeded);
    expect(called).toBe(false);
  });
});
