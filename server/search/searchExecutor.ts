import type { Resource } from '@medplum/fhirtypes';
import type { SqlExecutor } from '../storage/database';
import { estimateTotal } from './estimatedTotal';
import { resolveIncludes } from './includeResolver';
import type { SearchRequest } from './searchRequest';
import { buildOrderBy, buildWhere, SqlParams, type SearchScope } from './searchSql';

export interface SearchResult {
  resources: Resource[];
  /** Added by _include / _revinclude (search mode "include"). */
  included: Resource[];
  /** Absent for `_total=none`, and for an estimate the caller may not be given (estimatedTotal.ts). */
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
      // Not the planner's estimate alone: it comes from every project's rows (estimatedTotal.ts).
      const total = await estimateTotal(tx, `FROM resources r WHERE ${countWhere}`, countParams.values, scope);
      if (total !== undefined) result.total = total;
    }
  }
  return result;
}
