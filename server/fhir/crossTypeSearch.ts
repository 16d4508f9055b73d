import type { Resource } from '@medplum/fhirtypes';
import { parseSearchRequest, type QueryParams } from '../search/searchRequest';
import type { SearchResult } from '../search/searchExecutor';
import { searchLimitError } from '../search/searchLimits';
import { hasPatientCompartment } from './patientCompartment';
import { searchBundle } from './bundleBuilders';
import { errors } from './fhirError';
import { checkId, checkResourceType, type OperationEnvironment, type OperationResult } from './fhirOperations';

/** How many types one system search may name: each is its own query. */
const maxTypes = 20;
/** How far a system search may page (`_offset` + `_count`): every type loads that many matches. */
export const maxSystemSearchWindow = 2_000;

/**
 * System search `GET /fhir/R4?_type=A,B&…`: the same criteria run against each named type and the
 * matches come back in one Bundle, type by type (in the order given), then by each type's `_sort`.
 * Paging counts across the whole list. A criterion unknown for one of the types is a 400, as in a
 * type search.
 */
export async function systemSearchOperation(env: OperationEnvironment, query: QueryParams): Promise<OperationResult> {
  const raw = query._type;
  const types = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value.length > 0);
  if (types.length === 0) throw errors.invalid('System search needs _type, e.g. ?_type=Patient,Practitioner', '_type');
  if (types.length > maxTypes) throw errors.invalid(`_type may name at most ${maxTypes} types`, '_type');
  for (const type of types) checkResourceType(type);
  const criteria = Object.fromEntries(Object.entries(query).filter(([key]) => key !== '_type'));

  const requests = [...new Set(types)].map((type) => parseSearchRequest(type, criteria, env.registry));
  const { count, offset } = requests[0];
  // Each type answers its first offset+count+1 matches in full, into memory: `_offset=10000000`
  // over a few types loaded every resource of the project (and resolved includes for all of them).
  if (offset + count > maxSystemSearchWindow) {
    throw searchLimitError(
      '_offset',
      `A system search pages through its first ${maxSystemSearchWindow} matches only (_offset + _count); search one type for more`,
    );
  }
  const results: SearchResult[] = [];
  for (const request of requests) {
    // Each type answers the first offset+count+1 matches; the page is cut from their concatenation.
    results.push(await env.session.search({ ...request, offset: 0, count: offset + count + 1 }));
  }
  const all: Resource[] = results.flatMap((result) => result.resources);
  const totals = results.map((result) => result.total);
  const merged: SearchResult = {
    resources: all.slice(offset, offset + count),
    included: results.flatMap((result) => result.included),
    hasMore: all.length > offset + count || results.some((result) => result.hasMore),
    ...(totals.every((total) => total !== undefined) ? { total: totals.reduce((a, b) => (a ?? 0) + (b ?? 0), 0) } : {}),
  };
  // Links point at the FHIR base itself (resourceType ''), with _type kept in the query.
  return { status: 200, resource: searchBundle(merged, { ...requests[0], resourceType: '' }, query, env.fhirBase) };
}

/**
 * Compartment search `GET Patient/{id}/{type}?…` (the R4 patient CompartmentDefinition): a type
 * search limited to resources in that patient's compartment. The patient must be readable by the
 * caller (404 otherwise, as for a read), so the route reveals nothing a read would not.
 */
export async function compartmentSearchOperation(
  env: OperationEnvironment,
  compartmentType: string,
  id: string,
  resourceType: string,
  query: QueryParams,
): Promise<OperationResult> {
  if (compartmentType !== 'Patient') {
    checkResourceType(compartmentType);
    throw errors.notSupported(`Compartment search is supported for the Patient compartment only`);
  }
  checkId(id);
  checkResourceType(resourceType);
  if (!hasPatientCompartment(resourceType))
    throw errors.invalid(`${resourceType} is not in the Patient compartment`, resourceType);
  await env.session.read('Patient', id);
  const request = parseSearchRequest(resourceType, query, env.registry);
  request.compartments.push(`Patient/${id}`);
  const result = await env.session.search(request);
  return {
    status: 200,
    resource: searchBundle(result, { ...request, resourceType: `Patient/${id}/${resourceType}` }, query, env.fhirBase),
  };
}
