import { runTimeBoxed } from '../timeBox';
import { errors } from '../fhir/fhirError';
import type { ExpansionBudget } from './expansionBudget';

/**
 * Which of `values` a ValueSet `regex` filter matches (the whole value, as FHIR means it). The
 * pattern is the ValueSet author's (anyone may POST one to $expand), and JavaScript's backtracking
 * engine takes exponential time on patterns like `(a|a)*b`: one request stalled every request of
 * the process. The matching runs under a vm timeout, which interrupts a running regular
 * expression; the expansion's budget bounds all its regex filters together.
 */
export function regexMatches(pattern: string, values: string[], budget: ExpansionBudget, path: string): boolean[] {
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${pattern})$`);
  } catch (error) {
    throw errors.invalid(`Invalid regex filter "${pattern}": ${(error as Error).message}`, path);
  }
  const started = performance.now();
  try {
    const matched = runTimeBoxed(() => values.map((value) => regex.test(value)), budget.regexMillisecondsLeft());
    if (!matched) throw budget.regexTooSlow();
    return matched.value;
  } finally {
    budget.regexTook(performance.now() - started);
  }
}
