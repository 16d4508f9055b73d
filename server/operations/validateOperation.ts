import type { OperationOutcome, OperationOutcomeIssue, Parameters, Resource } from '@medplum/fhirtypes';
import { allOk, errors, FhirError, outcomeOf } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { validateAgainstProfile } from '../validation/profileValidator';
import { validateResource } from '../validation/resourceValidator';
import { findStructureDefinition } from './structureDefinitionLookup';

/** The resource to validate: the body itself, or a Parameters body's `resource` parameter. */
export function resourceToValidate(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid(
      'The request body must be a FHIR resource or a Parameters resource with a "resource" parameter',
    );
  }
  const candidate = body as Resource;
  if (candidate.resourceType !== 'Parameters') return candidate;
  const parameter = (candidate as Parameters).parameter?.find((p) => p.name === 'resource');
  if (!parameter?.resource) throw errors.invalid('Parameters must have a "resource" parameter', 'Parameters.parameter');
  return parameter.resource;
}

/**
 * What a write would refuse the resource for. A StructureDefinition too large to be worth
 * validating is refused by a write with a 422 (profiles/structureDefinitionSize.ts); here that is
 * one more problem of the resource, answered like the others (200 with the issue).
 */
function writeIssues(candidate: unknown): OperationOutcomeIssue[] {
  try {
    return validateResource(candidate);
  } catch (error) {
    if (error instanceof FhirError && error.status === 422) return [...(error.outcome.issue ?? [])];
    throw error;
  }
}

/** What one profile finds wrong with the resource (`expression`: where the profile was named, if in the resource). */
async function profileIssues(
  session: RepositorySession,
  resource: Resource,
  resourceType: string,
  url: unknown,
  named: { expression?: string[]; as: string },
): Promise<OperationOutcomeIssue[]> {
  const where = named.expression ? { expression: named.expression } : {};
  const profile = typeof url === 'string' ? await findStructureDefinition(session, url) : undefined;
  if (!profile) {
    return [
      {
        severity: 'error',
        code: 'not-found',
        details: { text: `Profile ${String(url)} ${named.as}is not known to this server` },
        ...where,
      },
    ];
  }
  if (profile.type !== resourceType) {
    return [
      {
        severity: 'error',
        code: 'invalid',
        details: { text: `Profile ${String(url)} ${named.as}is for ${profile.type}, not ${resourceType}` },
        ...where,
      },
    ];
  }
  // The profile's own rules, through the schema engine (server/validation/profileValidator.ts).
  return validateAgainstProfile(resource, profile, (u) => findStructureDefinition(session, u));
}

/**
 * `{Type}/$validate` and `{Type}/{id}/$validate`: checks the resource as a write would (the
 * official schema and the primitive rules of server/validation), without storing it, and checks
 * that each `meta.profile` is a StructureDefinition the caller can see, of the resource's type,
 * and that the resource conforms to it (schema engine: cardinality, slices, fixed/pattern, invariants).
 * `profile` (the operation's parameter) is checked the same way, as if it were one more
 * `meta.profile`: a client asks "would this conform to X" before it claims X.
 */
export async function validateOperation(
  session: RepositorySession,
  resourceType: string,
  candidate: unknown,
  id?: string,
  profile?: string,
): Promise<OperationOutcome> {
  const resource = candidate as Resource;
  if (typeof candidate === 'object' && candidate !== null && resource.resourceType !== resourceType) {
    throw errors.invalid(
      `Resource type in the body ("${String(resource.resourceType)}") does not match the URL ("${resourceType}")`,
      'resourceType',
    );
  }
  const issues: OperationOutcomeIssue[] = writeIssues(candidate);
  if (id !== undefined && resource.id !== undefined && resource.id !== id) {
    issues.push({
      severity: 'error',
      code: 'invalid',
      details: { text: `Resource id in the body ("${resource.id}") does not match the URL ("${id}")` },
      expression: [`${resourceType}.id`],
    });
  }
  const profiles = resource.meta?.profile ?? [];
  for (const [index, url] of profiles.entries()) {
    const expression = [`${resourceType}.meta.profile[${index}]`];
    issues.push(...(await profileIssues(session, resource, resourceType, url, { expression, as: '' })));
  }
  if (profile !== undefined && !profiles.includes(profile)) {
    issues.push(...(await profileIssues(session, resource, resourceType, profile, { as: '(the profile parameter) ' })));
  }
  return issues.length === 0 ? allOk() : outcomeOf(issues);
}
