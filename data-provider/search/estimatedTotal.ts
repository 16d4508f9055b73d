import type { TotalMode } from './searchRequest';

/**
 * The server counts `_total=estimate` exactly up to this many matches, from the caller's own rows
 * (server/search/estimatedTotal.ts); only a larger total is the planner's estimate. Shared so that
 * a screen writes "about N" only when N is one.
 */
export const ESTIMATE_COUNTED_UP_TO = 1_000;

/** Whether a search's total is an estimate ("about N") rather than a count. */
export function isEstimatedTotal(mode: TotalMode | undefined, total: number | undefined): boolean {
  return mode === 'estimate' && total !== undefined && total > ESTIMATE_COUNTED_UP_TO;
}
