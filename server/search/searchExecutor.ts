import type { Resource } from '@medplum/fhirtypes';
import type { SqlExecutor } from '../storage/database';
import { resolveIncludes } from './includeResolver';
import type { SearchRequest } from './searchRequest';
import { buildOrderBy, buildWhere, SqlParams, type SearchScope } from './searchSql';

export interface SearchResult {
  resources: Resource[];
  /** Added by _include / _revinclude (search mode "include"). */
  included: Resource[];
  total?: number;
  hasMore: boolean;
}

/** Runs a parsed search against the index tables. */
export async function executeSearch(
  tx: SqlExecutor,
  request: SearchRequest,
  scope: SearchScope = {},
): Promise<SearchResult> {
  if (request.summary === 'count') {
    request = { ...request, count: 0, total: request.total === 'estimate' ? 'estimate' : 'accurate' };
  }
  const params = new SqlParams();
  const where = buildWhere(request, params, scope);
  const orderBy = buildOrderBy(request.sort, params);
  const limit = params.add(request.count + 1);
  const offset = params.add(request.offset);
  const rows =
    request.count === 0
      ? []
      : await tx.query<{ content: Resource }>(
          `SELECT r.content FROM resources r WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}`,
          params.values,
        );
  const resources = rows.slice(0, request.count).map((row) => row.content);
  const result: SearchResult = {
    resources,
    included: await resolveIncludes(tx, resources, request.include, request.revInclude, scope),
    hasMore: rows.length > request.count,
  };
  if (request.total !== 'none') {
    const countParams = new SqlParams();
    const countWhere = buildWhere(request, countParams, scope);
    if (request.total === 'accurate') {
      const counted = await tx.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM resources r WHERE ${countWhere}`,
        countParams.values,
      );
      result.total = Number(counted[0].total);
    } else {
      result.total = await estimateCount(tx, `SELECT 1 FROM resources r WHERE ${countWhere}`, countParams.values);
    }
  }
  return result;
}

/** The planner's row estimate: cheap on large tables, exact enough for "about N results". */
async function estimateCount(tx: SqlExecutor, sql: string, values: unknown[]): Promise<number> {
  const rows = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
  const raw = rows[0]['QUERY PLAN'];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: { 'Plan Rows': number } }[];
  return Math.round(plan[0].Plan['Plan Rows']);
}
