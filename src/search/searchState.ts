import {
  DEFAULT_SEARCH_COUNT,
  formatQueryPairs,
  parseSearchParams,
  searchRequestToPairs,
  type Filter,
  type SearchRequest,
  type SortRule,
} from '../../data-provider/search';

/** Columns and sort of a search that names none (app-spec §2.6). */
export const DEFAULT_FIELDS: readonly string[] = ['_id', '_lastUpdated'];
export const DEFAULT_SORT: SortRule = { code: '_lastUpdated', descending: true };
export const FALLBACK_RESOURCE_TYPE = 'Task';
export const DEFAULT_RESOURCE_TYPE_KEY = 'defaultResourceType';
const LAST_SEARCH_PREFIX = 'hearth.lastSearch.';

/** The console's search: the FHIR request plus its display name (`_name` in the page URL). */
export interface ConsoleSearch {
  request: SearchRequest;
  name?: string;
}

/**
 * Page URL query → search, with the defaults filled in. Columns travel as `_fields`; without them
 * the list shows `defaultFields` (the type's readable columns, see defaultColumns.ts).
 */
export function parseConsoleSearch(
  resourceType: string,
  query: URLSearchParams,
  defaultFields: readonly string[] = DEFAULT_FIELDS,
): ConsoleSearch {
  const params = new URLSearchParams(query);
  const name = params.get('_name') ?? undefined;
  params.delete('_name');
  const request = parseSearchParams(resourceType, params);
  return {
    name,
    request: {
      ...request,
      fields: request.fields?.length ? request.fields : [...defaultFields],
      sortRules: request.sortRules?.length ? request.sortRules : [DEFAULT_SORT],
      offset: request.offset ?? 0,
      count: request.count ?? DEFAULT_SEARCH_COUNT,
      total: request.total ?? 'accurate',
    },
  };
}

/** Search → page URL query (without `?`). */
export function formatConsoleSearch(search: ConsoleSearch): string {
  const pairs = searchRequestToPairs({ ...search.request, fields: undefined });
  if (search.request.fields?.length) pairs.push(['_fields', search.request.fields.join(',')]);
  if (search.name) pairs.push(['_name', search.name]);
  return formatQueryPairs(pairs);
}

/** The query the server receives: no display columns, no name. */
export function serverQuery(request: SearchRequest): string {
  return formatQueryPairs(searchRequestToPairs({ ...request, fields: undefined }));
}

/** Changing the filters starts again at the first page and drops the saved search's name (§4). */
export function withFilters(search: ConsoleSearch, filters: Filter[]): ConsoleSearch {
  return { request: { ...search.request, filters, offset: 0 } };
}

/**
 * Changing the sort drops the name and starts again at the first page: page 2 of the old order is
 * no page of the new one (the rows a user saw before are spread over every page).
 */
export function withSort(search: ConsoleSearch, sort: SortRule): ConsoleSearch {
  return { request: { ...search.request, sortRules: [sort], offset: 0 } };
}

export function withFields(search: ConsoleSearch, fields: string[]): ConsoleSearch {
  return { ...search, request: { ...search.request, fields } };
}

/** Page numbers start at 1: offset = page size × (page − 1). */
export function withPage(search: ConsoleSearch, page: number): ConsoleSearch {
  const count = search.request.count ?? DEFAULT_SEARCH_COUNT;
  return { ...search, request: { ...search.request, offset: count * Math.max(0, page - 1) } };
}

export function currentPage(request: SearchRequest): number {
  const count = request.count ?? DEFAULT_SEARCH_COUNT;
  return Math.floor((request.offset ?? 0) / count) + 1;
}

/** 'first-last of total', with `~` before an estimated total; '' when nothing matched. */
export function formatPageRange(offset: number, shown: number, total: number | undefined, estimate: boolean): string {
  if (shown === 0) return '';
  const totalText = total === undefined ? '?' : `${estimate ? '~' : ''}${total.toLocaleString('en-US')}`;
  return `${(offset + 1).toLocaleString('en-US')}-${(offset + shown).toLocaleString('en-US')} of ${totalText}`;
}

export function rememberSearch(storage: Storage, resourceType: string, query: string): void {
  try {
    storage.setItem(LAST_SEARCH_PREFIX + resourceType, query);
  } catch {
    // A full or disabled storage only loses the memory of the last search.
  }
}

export function lastSearch(storage: Storage, resourceType: string): string | undefined {
  try {
    return storage.getItem(LAST_SEARCH_PREFIX + resourceType) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Type of the console's start page: local storage, then the user configuration option, then Task. */
export function defaultResourceType(storage: Storage, configured: string | undefined): string {
  let stored: string | null = null;
  try {
    stored = storage.getItem(DEFAULT_RESOURCE_TYPE_KEY);
  } catch {
    stored = null;
  }
  return stored || configured || FALLBACK_RESOURCE_TYPE;
}
