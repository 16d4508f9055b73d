import { errors } from './fhirError';
import { parseSearchRequest, type QueryParams, type SearchRequest } from '../search/searchRequest';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';

/** How a read or vread is shaped: `_summary` and `_elements`, as a search's entries are. */
export type ReadProjection = Pick<SearchRequest, 'elements' | 'summary'>;

const projectionKeys = ['_summary', '_elements', 'fields'] as const;

/**
 * The `_summary` and `_elements` (or its alias `fields`) of a read or vread, parsed and checked by
 * the search's own parser (same values, limits and errors); undefined when the query has neither,
 * so that such a read stays on its plain path. `_summary=count` counts search matches: 400 here.
 */
export function readProjectionOf(
  resourceType: string,
  query: QueryParams,
  registry: SearchParameterRegistry,
): ReadProjection | undefined {
  const asked: QueryParams = {};
  for (const key of projectionKeys) if (query[key] !== undefined) asked[key] = query[key];
  if (Object.keys(asked).length === 0) return undefined;
  const { summary, elements } = parseSearchRequest(resourceType, asked, registry);
  if (summary === 'count') {
    throw errors.invalid('_summary=count is for searches; a read answers one resource', '_summary');
  }
  return { summary, elements };
}
