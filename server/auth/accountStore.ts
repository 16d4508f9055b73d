import type {
  AccessPolicy,
  ClientApplication,
  Login,
  Project,
  ProjectMembership,
  Reference,
  Resource,
  User,
} from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { FhirError } from '../fhir/fhirError';
import { parseSearchRequest } from '../search/searchRequest';
import { membershipUsable } from './membershipState';

/** Lookups of accounts, memberships and policies for the auth flows (as the server, no caller policy). */

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(session: RepositorySession, email: string): Promise<User | undefined> {
  const request = parseSearchRequest('User', { 'email:exact': normalizeEmail(email), _count: '2' }, session.registry);
  const result = await session.search(request);
  return result.resources[0] as User | undefined;
}

export async function findUserByExternalId(session: RepositorySession, externalId: string): Promise<User | undefined> {
  const request = parseSearchRequest('User', { 'external-id:exact': externalId, _count: '2' }, session.registry);
  return (await session.search(request)).resources[0] as User | undefined;
}

/**
 * The usable memberships of a user (or a ClientApplication), optionally in one project: active, and
 * not waiting for the owner of the account's address (membershipState.ts).
 */
export async function membershipsOf(
  session: RepositorySession,
  subject: Reference,
  projectId?: string,
): Promise<ProjectMembership[]> {
  const query: Record<string, string> = { user: subject.reference as string, _count: '100' };
  if (projectId) query.project = `Project/${projectId}`;
  const result = await session.search(parseSearchRequest('ProjectMembership', query, session.registry));
  return (result.resources as ProjectMembership[]).filter(membershipUsable);
}

/** Reads a resource by reference, undefined when it does not exist (or is deleted). */
export async function readReference<T extends Resource>(
  session: RepositorySession,
  reference: Reference | undefined,
): Promise<T | undefined> {
  const [type, id] = (reference?.reference ?? '').split('/');
  if (!type || !id) return undefined;
  try {
    return (await session.read(type, id)) as T;
  } catch (error) {
    if (error instanceof FhirError && (error.status === 404 || error.status === 410)) return undefined;
    throw error;
  }
}

export async function readLogin(session: RepositorySession, id: string): Promise<Login | undefined> {
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(id)) return undefined;
  return readReference<Login>(session, { reference: `Login/${id}` });
}

export async function readProject(session: RepositorySession, reference: Reference | undefined) {
  return readReference<Project>(session, reference);
}

export async function readClient(session: RepositorySession, clientId: string): Promise<ClientApplication | undefined> {
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(clientId)) return undefined;
  return readReference<ClientApplication>(session, { reference: `ClientApplication/${clientId}` });
}

export async function readPolicy(session: RepositorySession, reference: Reference | undefined) {
  return readReference<AccessPolicy>(session, reference);
}
