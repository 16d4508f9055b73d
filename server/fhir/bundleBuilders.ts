import type { Bundle, BundleEntry, BundleLink, Resource } from '@medplum/fhirtypes';
import { applyElements, applySummary } from '../search/resourceProjection';
import type { SearchResult } from '../search/searchExecutor';
import type { QueryParams, SearchRequest } from '../search/searchRequest';
import type { HistoryPage } from './repository';

function queryString(query: QueryParams, overrides: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || key in overrides) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  for (const [key, value] of Object.entries(overrides)) params.set(key, value);
  return params.toString();
}

/**
 * A resource as `_elements` (which wins when both are given) or `_summary` shape it, for search
 * entries and reads alike. It only ever leaves elements out: what the caller's policy hid stays hidden.
 */
export function projectedResource(resource: Resource, request: Pick<SearchRequest, 'elements' | 'summary'>): Resource {
  if (request.elements && request.elements.length > 0) return applyElements(resource, request.elements);
  if (request.summary) return applySummary(resource, request.summary);
  return resource;
}

/** A searchset Bundle whose links reproduce the query with the offset moved. */
export function searchBundle(
  result: SearchResult,
  request: SearchRequest,
  query: QueryParams,
  fhirBase: string,
): Bundle {
  const url = (offset: number) =>
    `${fhirBase}${request.resourceType}?${queryString(query, { _count: String(request.count), _offset: String(offset) })}`;
  const link: BundleLink[] = [{ relation: 'self', url: url(request.offset) }];
  if (result.hasMore) link.push({ relation: 'next', url: url(request.offset + request.count) });
  if (request.offset > 0) link.push({ relation: 'previous', url: url(Math.max(0, request.offset - request.count)) });
  const bundle: Bundle = { resourceType: 'Bundle', type: 'searchset' };
  if (result.total !== undefined) bundle.total = result.total;
  bundle.link = link;
  const entry = (resource: Resource, mode: 'match' | 'include'): BundleEntry => ({
    fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`,
    resource: projectedResource(resource, request),
    search: { mode },
  });
  bundle.entry = [
    ...result.resources.map((r) => entry(r, 'match')),
    ...result.included.map((r) => entry(r, 'include')),
  ];
  return bundle;
}

const methods = { create: 'POST', update: 'PUT', delete: 'DELETE' } as const;
const statuses = { create: '201 Created', update: '200 OK', delete: '204 No Content' } as const;

/** A history Bundle, newest version first; deletions appear as entries with a DELETE request. */
export function historyBundle(
  page: HistoryPage,
  fhirBase: string,
  path: string,
  count: number,
  offset: number,
  since?: string,
): Bundle {
  const url = (at: number) => {
    const params = new URLSearchParams({ _count: String(count), _offset: String(at) });
    if (since) params.set('_since', since);
    return `${fhirBase}${path}?${params.toString()}`;
  };
  const link: BundleLink[] = [{ relation: 'self', url: url(offset) }];
  if (page.hasMore) link.push({ relation: 'next', url: url(offset + count) });
  if (offset > 0) link.push({ relation: 'previous', url: url(Math.max(0, offset - count)) });
  const bundle: Bundle = { resourceType: 'Bundle', type: 'history' };
  if (page.total !== undefined) bundle.total = page.total;
  bundle.link = link;
  bundle.entry = page.records.map(({ resource, operation }): BundleEntry => {
    const entry: BundleEntry = {
      fullUrl: `${fhirBase}${resource.resourceType}/${resource.id}`,
      request: {
        method: methods[operation],
        url: operation === 'create' ? resource.resourceType : `${resource.resourceType}/${resource.id}`,
      },
      response: {
        status: statuses[operation],
        etag: `W/"${resource.meta?.versionId}"`,
        lastModified: resource.meta?.lastUpdated,
      },
    };
    if (operation !== 'delete') entry.resource = resource;
    return entry;
  });
  return bundle;
}
