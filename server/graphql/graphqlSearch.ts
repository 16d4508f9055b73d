import type { Resource } from '@medplum/fhirtypes';
import { searchBundle } from '../fhir/bundleBuilders';
import { parseSearchRequest, type QueryParams } from '../search/searchRequest';
import type { GraphqlContext } from './fhirGraphqlSchema';

export interface ConnectionResult {
  resources: Resource[];
  count?: number;
  offset: number;
  pageSize: number;
  first?: string;
  previous?: string;
  next?: string;
  last?: string;
  edges: { mode: string; resource: Resource }[];
}

/** Runs `{Type}List` / `{Type}Connection` arguments through the REST search engine. */
export async function runListQuery(
  resourceType: string,
  args: Record<string, unknown>,
  codes: ReadonlyMap<string, string>,
  context: GraphqlContext,
): Promise<ConnectionResult> {
  const query: QueryParams = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const code = name.startsWith('_') && !codes.has(name) ? name : (codes.get(name) ?? name);
    query[code] = String(value);
  }
  query._total ??= 'accurate';
  const request = parseSearchRequest(resourceType, query, context.registry);
  const result = await context.session.search(request);
  const links = searchBundle(result, request, query, context.fhirBase).link ?? [];
  const link = (relation: string) => links.find((l) => l.relation === relation)?.url;
  return {
    resources: result.resources,
    count: result.total,
    offset: request.offset,
    pageSize: request.count,
    first: link('first'),
    previous: link('previous'),
    next: link('next'),
    last: link('last'),
    edges: result.resources.map((resource) => ({ mode: 'match', resource })),
  };
}
