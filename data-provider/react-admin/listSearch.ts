import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { GetListParams, GetListResult } from 'react-admin';
import type { TotalMode } from '../search/searchRequest';
import { DEFAULT_SEARCH_COUNT } from '../search/searchRequest';
import { isEstimatedTotal } from '../search/estimatedTotal';
import { filterPairs, type TextSearchParameter } from './filterParameters';
import { invalidRequest } from './httpErrors';
import { type FhirRecord, toRecord } from './raRecord';
import { sortParameter, type SortParameterMap } from './sortParameter';

/** Extra search controls a list may pass in react-admin's `meta`. */
export interface ListSearchMeta {
  /** `_total`: `accurate` counts, `estimate` asks the planner (cheap on big tables), `none` pages by links only. */
  total?: TotalMode;
  /** `_include` / `_revinclude` values, e.g. `Observation:subject`. */
  include?: string[];
  revInclude?: string[];
  /** `_elements`. */
  elements?: string[];
}

/** What getList puts in the result's `meta`. */
export interface ListResultMeta {
  total: TotalMode;
  /** True when `total` is the planner's estimate ("about N"), not a count (the server counts up to 1,000 exactly). */
  totalIsEstimate: boolean;
  /** The whole searchset, for `_include`d resources and links. */
  bundle: Bundle;
}

export interface ListSearchOptions {
  defaultTotal?: TotalMode;
  sortParameters?: SortParameterMap;
  textSearchParameter?: TextSearchParameter;
}

const totalModes = new Set<string>(['none', 'estimate', 'accurate']);

/** react-admin's list parameters → the FHIR search query: filters, then `_sort`, `_count`, `_offset`, `_total`. */
export function listSearchQuery(
  resourceType: string,
  params: Pick<GetListParams, 'pagination' | 'sort' | 'filter' | 'meta'>,
  options: ListSearchOptions = {},
): { query: URLSearchParams; total: TotalMode } {
  const meta = (params.meta ?? {}) as ListSearchMeta;
  const total = meta.total ?? options.defaultTotal ?? 'accurate';
  if (!totalModes.has(total)) throw invalidRequest(`Invalid total mode "${String(total)}"`, '_total');
  const page = Math.max(1, params.pagination?.page ?? 1);
  const perPage = params.pagination?.perPage ?? DEFAULT_SEARCH_COUNT;
  const query = new URLSearchParams(filterPairs(resourceType, params.filter, options.textSearchParameter));
  const sort = sortParameter(resourceType, params.sort, options.sortParameters);
  if (sort) query.set('_sort', sort);
  query.set('_count', String(perPage));
  query.set('_offset', String((page - 1) * perPage));
  query.set('_total', total);
  for (const include of meta.include ?? []) query.append('_include', include);
  for (const include of meta.revInclude ?? []) query.append('_revinclude', include);
  if (meta.elements?.length) query.set('_elements', meta.elements.join(','));
  return { query, total };
}

/** Matches only (not `_include`d resources), as records. */
export function bundleRecords<T extends Resource = Resource>(bundle: Bundle | undefined): FhirRecord<T>[] {
  return (bundle?.entry ?? [])
    .filter((entry) => entry.search?.mode !== 'include' && entry.search?.mode !== 'outcome' && entry.resource)
    .map((entry) => toRecord(entry.resource as T));
}

function hasLink(bundle: Bundle, relation: string): boolean {
  return (bundle.link ?? []).some((link) => link.relation === relation);
}

/**
 * The list result: the total when the server gave one, and always `pageInfo` from the Bundle's
 * links, so that a list without a count (or with an estimate) still knows whether there is a next page.
 */
export function listResult(bundle: Bundle, total: TotalMode, page: number): GetListResult<FhirRecord> {
  const meta: ListResultMeta = { total, totalIsEstimate: isEstimatedTotal(total, bundle.total), bundle };
  return {
    data: bundleRecords(bundle),
    ...(bundle.total !== undefined ? { total: bundle.total } : {}),
    pageInfo: { hasNextPage: hasLink(bundle, 'next'), hasPreviousPage: page > 1 || hasLink(bundle, 'previous') },
    meta,
  };
}
