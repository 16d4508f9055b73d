import { runTimeBoxed } from '../timeBox';
import { InvariantBudgetExceeded } from '../../schema-engine/validation/invariants';

/** How long one validation's profile invariants may run together. */
export const invariantBudgetMs = 1000;

/**
 * A runner for the schema engine's invariants (ValidateOptions.runInvariant) that stops them when
 * `budgetMs` is spent. A profile's constraints are FHIRPath written by whoever saved the profile (a
 * project admin): one like `x.select(($this & 'a') | ($this & 'b'))…` doubles its collection at
 * every step and held the shared event loop for as long as it grew. Each evaluation is time-boxed
 * (timeBox.ts) with what is left of the budget.
 */
export function invariantRunner(budgetMs = invariantBudgetMs): (evaluate: () => unknown[]) => unknown[] {
  let left = budgetMs;
  return (evaluate) => {
    if (left <= 0) throw new InvariantBudgetExceeded(`The profile's invariants took more than ${budgetMs} ms`);
    const started = performance.now();
    let result: { value: unknown[] } | undefined;
    try {
      result = runTimeBoxed(evaluate, left);
    } finally {
      left -= performance.now() - started;
    }
    if (!result) {
      left = 0;
      throw new InvariantBudgetExceeded(`The profile's invariants took more than ${budgetMs} ms`);
    }
    return result.value;
  };
}
