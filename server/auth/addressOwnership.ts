import type { ProjectMembership, Reference, User, UserSecurityRequest } from '@medplum/fhirtypes';
import { systemAuthor } from '../definitions/loadDefinitions';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { readProject } from './accountStore';
import { accountsProjectId } from './authEnvironment';
import { awaitsAddressOwner, ownerConfirmed } from './membershipState';

/**
 * Whether an account's e-mail address is proved to belong to the person who holds the account
 * (account pre-hijacking: docs/auth.md "Address ownership").
 *
 * `User.emailVerified` is true only when the address owner proved it — completed a set-password or
 * reset link e-mailed to the address, or signed in through an identity provider that says
 * `email_verified` while the account had no password — or when the server made the account itself
 * (the first super admin, the demo accounts). An open self-registration or an inviter who chose the
 * password leaves it false.
 *
 * Only accounts the server or a super admin stored count: those live with the accounts (or in a
 * super admin project, the first super admin). A User some project wrote through the FHIR API
 * before that was refused (accessGuard.ts) never counts as verified, whatever its field says.
 *
 * Accounts stored before the field was kept (no `emailVerified` at all) count as verified when a
 * set-password or reset link of theirs was completed — the same proof, recorded as a used
 * UserSecurityRequest — and as unverified otherwise: an inviter-chosen or self-registered password
 * is exactly what this rule must not trust.
 */
export async function addressVerified(session: RepositorySession, user: User): Promise<boolean> {
  if (user.emailVerified === false) return false;
  if (!(await storedByTheServer(session, user))) return false;
  if (user.emailVerified === true) return true;
  return completedLinkOf(session, user);
}

async function storedByTheServer(session: RepositorySession, user: User): Promise<boolean> {
  const projectId = user.meta?.project;
  if (!projectId || projectId === accountsProjectId) return true;
  return (await readProject(session, { reference: `Project/${projectId}` }))?.superAdmin === true;
}

async function completedLinkOf(session: RepositorySession, user: User): Promise<boolean> {
  const found = await session.search(
    parseSearchRequest('UserSecurityRequest', { user: `User/${user.id}`, _count: '100' }, session.registry),
  );
  // The server files these with the accounts or in the user's own project (authRoutes.ts, invitation.ts).
  const trusted = new Set([accountsProjectId, user.meta?.project ?? accountsProjectId]);
  return (found.resources as UserSecurityRequest[]).some(
    (request) => request.used === true && trusted.has(request.meta?.project ?? accountsProjectId),
  );
}

/** Every membership of the user, active or not (at most 1000), optionally in one project. */
export async function allMembershipsOf(
  session: RepositorySession,
  subject: Reference,
  projectId?: string,
): Promise<ProjectMembership[]> {
  const query: Record<string, string> = { user: subject.reference as string, _count: '1000' };
  if (projectId) query.project = `Project/${projectId}`;
  const result = await session.search(parseSearchRequest('ProjectMembership', query, session.registry));
  return result.resources as ProjectMembership[];
}

/** The memberships of the user that wait for the owner of its address (membershipState.ts). */
export async function waitingMembershipsOf(
  session: RepositorySession,
  subject: Reference,
  projectId?: string,
): Promise<ProjectMembership[]> {
  return (await allMembershipsOf(session, subject, projectId)).filter(awaitsAddressOwner);
}

/**
 * The address owner has proved the address: the account becomes verified (with `changes`, e.g. the
 * new password, in the same write) and its memberships that waited for the owner become usable.
 * Two-factor enrolment stays as it is: a link e-mailed to the address must not be enough to take an
 * account whose holder set up a second factor (it is why they did). Answers the user as saved.
 */
export async function confirmAddressOwner(
  session: RepositorySession,
  user: User,
  changes: Partial<User> = {},
): Promise<User> {
  const { resource } = await session.update(
    { projectId: user.meta?.project ?? accountsProjectId, author: systemAuthor },
    { ...user, ...changes, emailVerified: true },
  );
  for (const membership of await waitingMembershipsOf(session, { reference: `User/${user.id}` })) {
    const projectId = membership.project?.reference?.split('/')[1] ?? accountsProjectId;
    await session.update({ projectId, author: systemAuthor }, ownerConfirmed(membership));
  }
  return resource as User;
}
