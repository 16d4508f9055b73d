import { ESTIMATE_COUNTED_UP_TO } from '../../data-provider/search/estimatedTotal';
import type { SqlExecutor } from '../storage/database';
import type { SearchScope } from './searchSql';

/**
 * What `_total=estimate` answers once the caller's matches were counted up to the cap: the count
 * when it stays within the cap (exact, and from the caller's rows only); above it, the planner's
 * estimate (never below what was counted) only for a caller who sees every row (the server itself,
 * a super admin whose token no SMART scope narrows), since the planner estimates from statistics
 * of the whole tables, every project's rows included; anyone else gets no total at all (FHIR lets
 * a server leave it out). `plannerRows` is asked only in that one case.
 */
export async function totalFromBoundedCount(
  counted: number,
  seesEveryRow: boolean,
  plannerRows: () => Promise<number>,
): Promise<number | undefined> {
  if (counted <= ESTIMATE_COUNTED_UP_TO) return counted;
  if (!seesEveryRow) return undefined;
  return Math.max(await plannerRows(), ESTIMATE_COUNTED_UP_TO + 1);
}

/**
 * A scope without a visibility clause is not limited to any project's rows (searchSql.ts,
 * accessRestriction.ts): the server itself and super admins without SMART scopes. A super admin's
 * scoped token has one (its scopes), and a scoped app must learn nothing beyond its scopes either.
 */
export function seesEveryRow(scope: SearchScope): boolean {
  return scope.visible === undefined;
}

/** `_total=estimate` for the rows of `from` (a `FROM … WHERE …` of the search, already visibility-limited). */
export async function estimateTotal(
  tx: SqlExecutor,
  from: string,
  values: unknown[],
  scope: SearchScope,
): Promise<number | undefined> {
  const bounded = await tx.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM (SELECT 1 ${from} LIMIT ${ESTIMATE_COUNTED_UP_TO + 1}) AS bounded`,
    values,
  );
  return totalFromBoundedCount(Number(bounded[0].total), seesEveryRow(scope), () =>
    plannerRowEstimate(tx, `SELECT 1 ${from}`, values),
  );
}

/** The planner's row estimate of `sql`: whole-table statistics, so for callers who see every row only. */
async function plannerRowEstimate(tx: SqlExecutor, sql: string, values: unknown[]): Promise<number> {
  const rows = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
  const raw = rows[0]['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(plan[0].Plan['Plan Rows']);
}
