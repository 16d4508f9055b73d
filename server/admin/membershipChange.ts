import type { ProjectMembership } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import { awaitsAddressOwner, checkAwaitingOwnerKept } from '../auth/membershipState';

/** What an admin edits on a membership (Medplum's member page): the rest is fixed by how it was made. */
export const editableMembershipFields = [
  'active',
  'admin',
  'accessPolicy',
  'access',
  'profile',
  'userConfiguration',
  'identifier',
  'externalId',
] as const;

/** Fields that decide who the membership is for and where it counts: never changed here. */
const fixedFields = ['project', 'user'] as const;

/** Kept by the server whatever the body says (versioning, the sign-in records). */
const serverFields = new Set(['resourceType', 'id', 'meta', 'text']);

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function referenceProblem(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return true;
  const reference = (value as { reference?: unknown }).reference;
  return typeof reference !== 'string' || !/^[A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.test(reference);
}

/** 400 naming `path` unless `value` has the FHIR shape of this membership field (shared with invitations). */
export function checkShape(
  field: (typeof editableMembershipFields)[number],
  value: unknown,
  path = `ProjectMembership.${field}`,
): void {
  switch (field) {
    case 'active':
    case 'admin':
      if (typeof value !== 'boolean') throw errors.invalid(`${field} must be true or false`, path);
      return;
    case 'externalId':
      if (typeof value !== 'string' || value.length > 500) throw errors.invalid('externalId must be text', path);
      return;
    case 'accessPolicy':
    case 'profile':
    case 'userConfiguration':
      if (referenceProblem(value)) throw errors.invalid(`${field} must be a reference such as Type/id`, path);
      return;
    case 'identifier':
      if (!Array.isArray(value) || value.length > 20) throw errors.invalid('identifier must be a list', path);
      value.forEach((entry: unknown, index) => {
        const ok =
          typeof entry === 'object' &&
          entry !== null &&
          Object.entries(entry).every(
            ([key, part]) => ['system', 'value', 'use'].includes(key) && typeof part === 'string',
          );
        if (!ok) throw errors.invalid('An identifier has a text system and value', `${path}[${index}]`);
      });
      return;
    case 'access':
      if (!Array.isArray(value) || value.length > 50) throw errors.invalid('access must be a list', path);
      value.forEach((entry: unknown, index) => {
        if (typeof entry !== 'object' || entry === null || referenceProblem((entry as { policy?: unknown }).policy)) {
          throw errors.invalid('Each access entry names a policy (AccessPolicy/id)', `${path}[${index}].policy`);
        }
        const parameters = (entry as { parameter?: unknown }).parameter;
        if (parameters !== undefined && !Array.isArray(parameters)) {
          throw errors.invalid('parameter must be a list', `${path}[${index}].parameter`);
        }
      });
  }
}

/**
 * The membership after an admin's `POST …/members/{id}` with `body`, checked field by field: the
 * body is a ProjectMembership with this id; `project` and `user` stay as stored (403: moving a
 * membership to another project, e.g. the super admins', or onto another person is no edit an
 * admin makes); the editable fields have their FHIR shapes (400 naming the field); anything else
 * must be as stored. Omitted editable fields are removed, as in a FHIR update. References are
 * checked against the project by the caller (they need the database).
 */
export function membershipChange(stored: ProjectMembership, body: unknown, membershipId: string): ProjectMembership {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid('Expected a ProjectMembership', 'ProjectMembership');
  }
  const incoming = body as Record<string, unknown>;
  if (incoming.resourceType !== 'ProjectMembership') {
    throw errors.invalid('Expected resourceType ProjectMembership', 'ProjectMembership.resourceType');
  }
  if (incoming.id !== membershipId) {
    throw errors.invalid(`The id must be ${membershipId}, the membership of the address`, 'ProjectMembership.id');
  }
  const storedFields = stored as unknown as Record<string, unknown>;
  for (const field of fixedFields) {
    if (
      incoming[field] !== undefined &&
      (incoming[field] as { reference?: unknown })?.reference !== stored[field]?.reference
    ) {
      throw errors.forbiddenIssues([
        {
          severity: 'error',
          code: 'forbidden',
          details: {
            text:
              field === 'project'
                ? 'Forbidden: a membership stays in its project'
                : 'Forbidden: a membership stays with its user; invite the other person instead',
          },
          expression: [`ProjectMembership.${field}`],
        },
      ]);
    }
  }
  const editable = new Set<string>(editableMembershipFields);
  for (const [field, value] of Object.entries(incoming)) {
    if (serverFields.has(field) || editable.has(field) || (fixedFields as readonly string[]).includes(field)) continue;
    if (!sameJson(value, storedFields[field])) {
      throw errors.invalid(`${field} cannot be changed here`, `ProjectMembership.${field}`);
    }
  }
  const next: Record<string, unknown> = { ...storedFields };
  for (const field of editableMembershipFields) {
    const value = incoming[field];
    if (value === undefined || value === null) {
      delete next[field];
      continue;
    }
    checkShape(field, value);
    next[field] = value;
  }
  if (!next.profile) throw errors.invalid('A membership needs a profile', 'ProjectMembership.profile');
  // A membership that waits for the owner of its address stays inactive until they answer the
  // e-mail (membershipState.ts): omitting `active` keeps it so, asking for `true` is refused.
  if (awaitsAddressOwner(stored) && next.active === undefined) next.active = false;
  checkAwaitingOwnerKept(next as unknown as ProjectMembership, stored);
  return next as unknown as ProjectMembership;
}
