import type { Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { parseSearchRequest, type QueryParams } from '../search/searchRequest';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { isKnownResourceType } from '../validation/fhirJsonSchema';
import { historyBundle, projectedResource, searchBundle } from './bundleBuilders';
import { errors } from './fhirError';
import { checkResourceId } from './resourceId';
import { applyPatch, parsePatch } from './jsonPatch';
import type { ReadProjection } from './readProjection';
import type { RepositorySession, RequestContext, StoredJson } from './repository';

/** What one FHIR interaction answers, before it becomes an HTTP response or a Bundle entry. */
export interface OperationResult {
  status: number;
  resource?: Resource;
  /** The answer as stored JSON text, sent unchanged (readOperation with `storedJson`). */
  stored?: StoredJson;
  outcome?: OperationOutcome;
  /** `Type/id/_history/vid` relative to the FHIR base, for Location. */
  location?: string;
}

export interface OperationEnvironment {
  session: RepositorySession;
  ctx: RequestContext;
  registry: SearchParameterRegistry;
  /** Absolute FHIR base ending with `/`, e.g. `http://localhost:8103/fhir/R4/`. */
  fhirBase: string;
}

export function checkResourceType(resourceType: string): void {
  if (!isKnownResourceType(resourceType)) {
    throw errors.notSupported(`Unknown resource type "${resourceType}"`, 404);
  }
}

/** 400 for an id that is not a FHIR id safe to store (server/fhir/resourceId.ts), at `Type.id`. */
export function checkId(id: string, resourceType?: string): void {
  checkResourceId(id, resourceType ? `${resourceType}.id` : 'id');
}

function checkBody(resourceType: string, body: unknown): Resource {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid('The request body must be a FHIR resource (a JSON object)');
  }
  const resource = body as Resource;
  if (resource.resourceType !== resourceType) {
    throw errors.invalid(
      `Resource type in the body ("${String(resource.resourceType)}") does not match the URL ("${resourceType}")`,
      'resourceType',
    );
  }
  return resource;
}

function locationOf(resource: Resource): string {
  return `${resource.resourceType}/${resource.id}/_history/${resource.meta?.versionId}`;
}

export async function createOperation(
  env: OperationEnvironment,
  resourceType: string,
  body: unknown,
  ifNoneExist?: string,
  assignedId?: string,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  const resource = checkBody(resourceType, body);
  if (ifNoneExist) {
    const existing = await conditionalMatch(env, resourceType, ifNoneExist);
    if (existing) return { status: 200, resource: existing, location: locationOf(existing) };
  }
  // An id a transaction Bundle assigned is a new random UUID, like the one create would draw: marking
  // it fresh spares the flush a delete of index rows that cannot exist (8 statements per Bundle).
  const created = await env.session.create(env.ctx, resource, assignedId ? { id: assignedId, fresh: true } : {});
  return { status: 201, resource: created, location: locationOf(created) };
}

/** The one resource matching `criteria` (a query string), undefined for none, 412 for several. */
export async function conditionalMatch(
  env: OperationEnvironment,
  resourceType: string,
  criteria: string,
): Promise<Resource | undefined> {
  const query = queryFromString(criteria.replace(/^[^?]*\?/, ''));
  if (Object.keys(query).length === 0) throw errors.invalid('Conditional criteria are empty');
  const request = parseSearchRequest(resourceType, query, env.registry);
  request.count = 2;
  request.offset = 0;
  const result = await env.session.search(request);
  if (result.resources.length > 1) {
    throw errors.preconditionFailed(`Conditional criteria "${criteria}" match more than one ${resourceType}`);
  }
  return result.resources[0];
}

export function queryFromString(queryString: string): QueryParams {
  const query: QueryParams = {};
  for (const [key, value] of new URLSearchParams(queryString)) {
    const existing = query[key];
    if (existing === undefined) query[key] = value;
    else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return query;
}

/**
 * A read by id. With `storedJson` (the REST route) the answer may be the stored JSON text as it is
 * (RepositorySession.readForAnswer): what the client receives is the same either way.
 */
export async function readOperation(
  env: OperationEnvironment,
  resourceType: string,
  id: string,
  options: { storedJson?: boolean; projection?: ReadProjection } = {},
): Promise<OperationResult> {
  checkResourceType(resourceType);
  checkId(id, resourceType);
  if (options.projection) {
    // Shaped after the policy's redaction (session.read): leaving elements out cannot reveal any.
    return { status: 200, resource: projectedResource(await env.session.read(resourceType, id), options.projection) };
  }
  if (!options.storedJson) return { status: 200, resource: await env.session.read(resourceType, id) };
  const answer = await env.session.readForAnswer(resourceType, id);
  return 'resourceType' in answer ? { status: 200, resource: answer } : { status: 200, stored: answer };
}

export async function vreadOperation(
  env: OperationEnvironment,
  resourceType: string,
  id: string,
  versionId: string,
  projection?: ReadProjection,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  checkId(id, resourceType);
  const resource = await env.session.readVersion(resourceType, id, versionId);
  return { status: 200, resource: projection ? projectedResource(resource, projection) : resource };
}

export async function updateOperation(
  env: OperationEnvironment,
  resourceType: string,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  checkId(id, resourceType);
  const resource = checkBody(resourceType, body);
  if (resource.id !== undefined && resource.id !== id) {
    throw errors.invalid(
      `Resource id in the body ("${resource.id}") does not match the URL ("${id}")`,
      `${resourceType}.id`,
    );
  }
  const { resource: stored, created } = await env.session.update(env.ctx, { ...resource, id }, ifMatch);
  return { status: created ? 201 : 200, resource: stored, location: locationOf(stored) };
}

export async function patchOperation(
  env: OperationEnvironment,
  resourceType: string,
  id: string,
  body: unknown,
  ifMatch?: string,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  checkId(id, resourceType);
  const patch = parsePatch(body);
  const current = await env.session.read(resourceType, id);
  const patched = applyPatch(current, patch);
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
    throw errors.invalid('The patch must leave a resource (a JSON object)');
  }
  if (patched.resourceType !== resourceType || patched.id !== id) {
    throw errors.invalid('A patch may not change resourceType or id');
  }
  const { resource: stored } = await env.session.update(env.ctx, patched, ifMatch ?? `W/"${current.meta?.versionId}"`);
  return { status: 200, resource: stored, location: locationOf(stored) };
}

export async function deleteOperation(
  env: OperationEnvironment,
  resourceType: string,
  id: string,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  checkId(id, resourceType);
  await env.session.delete(env.ctx, resourceType, id);
  return {
    status: 200,
    outcome: {
      resourceType: 'OperationOutcome',
      id: 'ok',
      issue: [{ severity: 'information', code: 'informational', details: { text: 'Deleted' } }],
    },
  };
}

export async function searchOperation(
  env: OperationEnvironment,
  resourceType: string,
  query: QueryParams,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  const request = parseSearchRequest(resourceType, query, env.registry);
  const result = await env.session.search(request);
  return { status: 200, resource: searchBundle(result, request, query, env.fhirBase) };
}

export async function historyOperation(
  env: OperationEnvironment,
  query: QueryParams,
  resourceType?: string,
  id?: string,
): Promise<OperationResult> {
  if (resourceType) checkResourceType(resourceType);
  if (id) {
    checkId(id, resourceType);
    // Answer 404 for a resource that never existed rather than an empty history.
    if (!(await env.session.readCurrent(resourceType as string, id))) throw errors.notFound();
  }
  const count = boundedInteger(query._count, 20, 1000, '_count');
  const offset = boundedInteger(query._offset, 0, Number.MAX_SAFE_INTEGER, '_offset');
  const since = typeof query._since === 'string' ? query._since : undefined;
  if (since !== undefined && Number.isNaN(Date.parse(since)))
    throw errors.invalid(`Invalid _since "${since}"`, '_since');
  const page = await env.session.history({ resourceType, id, count, offset, since });
  const path = [resourceType, id, '_history'].filter(Boolean).join('/');
  return { status: 200, resource: historyBundle(page, env.fhirBase, path, count, offset, since) as Bundle };
}

function boundedInteger(raw: QueryParams[string], fallback: number, max: number, name: string): number {
  const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) > max) throw errors.invalid(`Invalid ${name} "${value}"`, name);
  return Number(value);
}
