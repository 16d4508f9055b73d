import type { ProjectMembershipAccess, Reference, Resource } from '@medplum/fhirtypes';
import { readReference } from '../auth/accountStore';
import { errors, FhirError } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';

/**
 * The admin routes write memberships as the server, so the repository's own rule for callers (every
 * new reference points into the caller's project) does not run for them: these checks are that rule
 * here. Without them an admin could bind another project's AccessPolicy or UserConfiguration to a
 * member of their own, and `auth/me` would then show that member the other project's record.
 */

/** The resource `reference` names if it belongs to `projectId`; undefined for absent, deleted, malformed or foreign. */
async function readInProject(
  session: RepositorySession,
  projectId: string,
  reference: Reference,
): Promise<Resource | undefined> {
  try {
    const target = await readReference<Resource>(session, reference);
    return target?.meta?.project === projectId ? target : undefined;
  } catch (error) {
    // An unknown resource type or a malformed id is, to the caller, a reference to nothing.
    if (error instanceof FhirError && error.status < 500) return undefined;
    throw error;
  }
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? 'an' : 'a';
}

/**
 * A changed reference must name a resource of this project, of an expected type: 400 naming the
 * field otherwise. The same answer whatever the reason (absent, deleted, another project's), so it
 * reveals nothing about other projects.
 */
export async function checkProjectReference(
  session: RepositorySession,
  projectId: string,
  reference: Reference | undefined,
  previous: Reference | undefined,
  types: readonly string[],
  path: string,
): Promise<void> {
  if (!reference || reference.reference === previous?.reference) return;
  await readProjectReference(session, projectId, reference, types, path);
}

/**
 * The resource `reference` names, when it is one of this project's of an expected type; otherwise
 * the 400 of checkProjectReference (the same answer for absent, deleted and another project's).
 */
export async function readProjectReference(
  session: RepositorySession,
  projectId: string,
  reference: Reference,
  types: readonly string[],
  path: string,
): Promise<Resource> {
  const type = reference.reference?.split('/')[0] ?? '';
  const target = types.includes(type) ? await readInProject(session, projectId, reference) : undefined;
  if (!target) {
    const field = path.split('.').pop() ?? path;
    throw errors.invalid(`${field} must be ${article(types[0])} ${types.join(' or ')} of this project`, path);
  }
  return target;
}

/** The literal references of access entries: their policies and their parameters' valueReferences. */
function accessReferences(access: readonly ProjectMembershipAccess[] | undefined): Set<string> {
  const found = new Set<string>();
  for (const entry of access ?? []) {
    if (entry.policy?.reference) found.add(entry.policy.reference);
    for (const parameter of entry.parameter ?? []) {
      if (parameter?.valueReference?.reference) found.add(parameter.valueReference.reference);
    }
  }
  return found;
}

/**
 * Each access entry's policy must be an AccessPolicy of this project, and each parameter given as a
 * reference (`%patient`…) a resource of this project. References already in `stored` were checked
 * when they were written and are not read again (a policy deleted since stays removable).
 */
export async function checkAccessReferences(
  session: RepositorySession,
  projectId: string,
  access: readonly ProjectMembershipAccess[] | undefined,
  stored: readonly ProjectMembershipAccess[] | undefined,
  path: string,
): Promise<void> {
  const before = accessReferences(stored);
  for (const [index, entry] of (access ?? []).entries()) {
    if (!before.has(entry.policy?.reference ?? '')) {
      await checkProjectReference(
        session,
        projectId,
        entry.policy,
        undefined,
        ['AccessPolicy'],
        `${path}[${index}].policy`,
      );
    }
    for (const [position, parameter] of (entry.parameter ?? []).entries()) {
      const reference = parameter?.valueReference;
      if (!reference?.reference || before.has(reference.reference)) continue;
      if (!(await readInProject(session, projectId, reference))) {
        throw errors.invalid(
          'valueReference must name a resource of this project',
          `${path}[${index}].parameter[${position}].valueReference`,
        );
      }
    }
  }
}
