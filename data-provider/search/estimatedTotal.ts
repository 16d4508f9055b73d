import type { TotalMode } from './searchRequest';

/**
 * The server counts `_total=estimate` exactly up to this many matches, from the caller's own rows
 * (server/search/estimatedTotal.ts); only a larger total is the planner's estimate, and a screen
 * writes "about N" only then. Why 1,000: the bounded count (`SELECT count(*) FROM (SELECT 1 …
 * LIMIT cap + 1)`) costs the cap's worth of matching rows, ~1.4 µs each warm over 30,000
 * Observations of one code (1,000: 2.4 ms on PostgreSQL, 4 ms on PGlite with its ~3 ms of planning;
 * 10,000: 15–16 ms on both). The budget of a common search is 30 ms p95 at 1M resources
 * (docs/benchmarks.md), where a large result's rows are not all cached: 10,000 visits would spend
 * it alone. Beyond 1,000 a list does not need the number: it pages by links.
 */
export const ESTIMATE_COUNTED_UP_TO = 1_000;

/** Whether a search's total is an estimate ("about N") rather than a count. */
export function isEstimatedTotal(mode: TotalMode | undefined, total: number | undefined): boolean {
  return mode === 'estimate' && total !== undefined && total > ESTIMATE_COUNTED_UP_TO;
}
