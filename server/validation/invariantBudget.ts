import { runInNewContext } from 'node:vm';
import { InvariantBudgetExceeded } from '../../schema-engine/validation/invariants';

/** How long one validation's profile invariants may run together. */
export const invariantBudgetMs = 1000;

/**
 * A runner for the schema engine's invariants (ValidateOptions.runInvariant) that stops them when
 * `budgetMs` is spent. A profile's constraints are FHIRPath written by whoever saved the profile (a
 * project admin): one like `x.select(($this & 'a') | ($this & 'b'))…` doubles its collection at
 * every step and held the shared event loop for as long as it grew. Each evaluation runs under a
 * vm timeout — the watchdog interrupts any JavaScript on the stack, fhirpath.js's included — with
 * what is left of the budget.
 */
export function invariantRunner(budgetMs = invariantBudgetMs): (evaluate: () => unknown[]) => unknown[] {
  let left = budgetMs;
  return (evaluate) => {
    if (left <= 0) throw new InvariantBudgetExceeded(`The profile's invariants took more than ${budgetMs} ms`);
    const started = performance.now();
    try {
      return runInNewContext('evaluate()', { evaluate }, { timeout: Math.max(1, Math.ceil(left)) }) as unknown[];
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        left = 0;
        throw new InvariantBudgetExceeded(`The profile's invariants took more than ${budgetMs} ms`);
      }
      throw error;
    } finally {
      left -= performance.now() - started;
    }
  };
}
