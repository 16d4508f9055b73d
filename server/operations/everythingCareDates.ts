import { parseValueFilter } from '../search/searchRequest';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { filtersClause, type SearchScope, type SqlParams } from '../search/searchSql';

/** `$everything`'s `start` and `end` (dates of care, not of the record: Patient-everything). */
export interface CareDateRange {
  start?: string;
  end?: string;
}

/**
 * SQL a row `r` of `resourceType` must satisfy to fall in the care-date range: its clinical date
 * (the `date` search parameter: an Observation's effective time, an Encounter's period, …) ends on
 * or after `start` and begins by the end of `end` — what `date=ge{start}&date=le{end}` finds, by the
 * same SQL. Undefined for a type with no `date` parameter (Patient, Coverage, …): no care date to
 * judge by, so the range leaves it in.
 */
export function careDateCondition(
  resourceType: string,
  range: CareDateRange,
  registry: SearchParameterRegistry,
  params: SqlParams,
  scope: SearchScope,
): string | undefined {
  if (range.start === undefined && range.end === undefined) return undefined;
  if (registry.get(resourceType, 'date')?.type !== 'date') return undefined;
  const filters = [];
  if (range.start !== undefined) filters.push(parseValueFilter(resourceType, 'date', `ge${range.start}`, registry));
  if (range.end !== undefined) filters.push(parseValueFilter(resourceType, 'date', `le${range.end}`, registry));
  return filtersClause(filters, params, 'r', scope);
}
