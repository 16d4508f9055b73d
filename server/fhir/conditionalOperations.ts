import type { Resource } from '@medplum/fhirtypes';
import { parseSearchRequest, type QueryParams } from '../search/searchRequest';
import { errors } from './fhirError';
import {
  checkResourceType,
  createOperation,
  deleteOperation,
  updateOperation,
  type OperationEnvironment,
  type OperationResult,
} from './fhirOperations';

/** Paging and shaping parameters say nothing about which resource is meant. */
const notCriteria = new Set(['_count', '_offset', '_sort', '_total', '_summary', '_elements', '_format', '_pretty']);

/** Up to two resources matching the criteria of `PUT/DELETE {type}?{criteria}` (two are enough to tell "several"). */
async function matches(env: OperationEnvironment, resourceType: string, query: QueryParams): Promise<Resource[]> {
  const criteria = Object.fromEntries(Object.entries(query).filter(([key]) => !notCriteria.has(key)));
  if (Object.keys(criteria).length === 0)
    throw errors.invalid(`A conditional ${resourceType} interaction needs search criteria, e.g. ?identifier=…`);
  const request = parseSearchRequest(resourceType, criteria, env.registry);
  request.count = 2;
  request.offset = 0;
  return (await env.session.search(request)).resources;
}

/**
 * Which resource a conditional update of `body` is about (FHIR R4 §3.1.0.4.3): the one match's id;
 * with no match, the body's own id when no resource has it yet, or undefined for a new resource with
 * a server-assigned id. Several matches are 412 Precondition Failed; a body id that is not the
 * match's, or that names a resource the criteria did not find, is 400. Transaction Bundles resolve
 * their conditional entries with it before anything is written, so other entries can point at them.
 */
export async function conditionalUpdateTarget(
  env: OperationEnvironment,
  resourceType: string,
  query: QueryParams,
  body: unknown,
): Promise<string | undefined> {
  checkResourceType(resourceType);
  const found = await matches(env, resourceType, query);
  const bodyId = (body as Resource | undefined)?.id;
  if (found.length > 1) {
    throw errors.preconditionFailed(`The criteria match more than one ${resourceType}; be more specific`);
  }
  if (found.length === 1) {
    const id = found[0].id as string;
    if (bodyId !== undefined && bodyId !== id) {
      throw errors.invalid(
        `Resource id in the body ("${bodyId}") is not the id of the matching ${resourceType} ("${id}")`,
        `${resourceType}.id`,
      );
    }
    return id;
  }
  if (bodyId === undefined) return undefined;
  // An id the criteria did not find: creating it is fine, overwriting another resource by it is not.
  if (await env.session.readCurrent(resourceType, bodyId)) {
    throw errors.invalid(
      `${resourceType}/${bodyId} exists but does not match the criteria; leave out the id or change the criteria`,
      `${resourceType}.id`,
    );
  }
  return bodyId;
}

/** Conditional update: the one match is updated, no match creates (conditionalUpdateTarget). */
export async function conditionalUpdateOperation(
  env: OperationEnvironment,
  resourceType: string,
  query: QueryParams,
  body: unknown,
  ifMatch?: string,
): Promise<OperationResult> {
  const target = await conditionalUpdateTarget(env, resourceType, query, body);
  if (target === undefined) return createOperation(env, resourceType, body);
  return updateOperation(env, resourceType, target, body, ifMatch);
}

/**
 * Conditional delete (FHIR R4 §3.1.0.7.1, `conditionalDelete: single`): no match is a success that
 * deletes nothing, one match is deleted, several are 412 (nothing is deleted).
 */
export async function conditionalDeleteOperation(
  env: OperationEnvironment,
  resourceType: string,
  query: QueryParams,
): Promise<OperationResult> {
  checkResourceType(resourceType);
  const found = await matches(env, resourceType, query);
  if (found.length > 1) {
    throw errors.preconditionFailed(`The criteria match more than one ${resourceType}; nothing was deleted`);
  }
  if (found.length === 1) return deleteOperation(env, resourceType, found[0].id as string);
  return {
    status: 200,
    outcome: {
      resourceType: 'OperationOutcome',
      issue: [
        {
          severity: 'information',
          code: 'not-found',
          details: { text: `No ${resourceType} matched; nothing was deleted` },
        },
      ],
    },
  };
}
