import { checkKeepsAnAdmin } from '../fhir/lastAdminGuard';
import type { FastifyInstance } from 'fastify';
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { readReference } from '../auth/accountStore';
import { authenticate } from '../auth/authenticate';
import { allOk, errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { withoutProtectedFields } from '../fhir/protectedFields';
import { membershipChange } from './membershipChange';
import { checkProfileUnclaimed } from './profileHolder';
import { checkAccessReferences, checkProjectReference } from './projectReferences';
import { requireProjectAdmin } from './projectAdminAccess';

const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;
const profileTypes = ['Practitioner', 'Patient', 'RelatedPerson'];

type Params = { projectId: string; membershipId: string };

/** The membership of this project with this id, or 404 (another project's is no different from none). */
async function readMembership(session: RepositorySession, projectId: string, membershipId: string) {
  const membership = idPattern.test(membershipId)
    ? await readReference<ProjectMembership>(session, { reference: `ProjectMembership/${membershipId}` })
    : undefined;
  if (!membership || membership.project?.reference !== `Project/${projectId}`) {
    throw errors.notFoundWith('Membership not found');
  }
  return membership;
}

/**
 * `GET/POST/DELETE /admin/projects/{projectId}/members/{membershipId}` (Medplum's member page):
 * read a membership, update what an admin may change (access policy, admin flag, profile…), remove
 * it. Same rule as every admin route; a membership of another project is a 404. No change may
 * leave the project without an active person as admin (super admins excepted: they repair
 * projects). Writes run as the server once these checks pass, as the invitation does.
 */
export async function projectMemberRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const path = '/admin/projects/:projectId/members/:membershipId';

  app.get<{ Params: Params }>(path, async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId, membershipId } = request.params;
    caller.ctx.access?.checkScopes('ProjectMembership', 'read');
    requireProjectAdmin(caller, projectId, 'see memberships');
    const membership = await env.repository.transaction((session) => readMembership(session, projectId, membershipId));
    return reply.code(200).type('application/fhir+json').send(withoutProtectedFields(membership));
  });

  app.post<{ Params: Params }>(path, async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId, membershipId } = request.params;
    caller.ctx.access?.checkScopes('ProjectMembership', 'update');
    requireProjectAdmin(caller, projectId, 'change memberships');
    const saved = await env.repository.transaction(async (session) => {
      const stored = await readMembership(session, projectId, membershipId);
      const next = membershipChange(stored, request.body, membershipId);
      await checkProjectReference(
        session,
        projectId,
        next.accessPolicy,
        stored.accessPolicy,
        ['AccessPolicy'],
        'ProjectMembership.accessPolicy',
      );
      await checkProjectReference(
        session,
        projectId,
        next.profile,
        stored.profile,
        profileTypes,
        'ProjectMembership.profile',
      );
      // Moving a membership onto a person another account already acts as would make two of them.
      const profile = next.profile?.reference;
      if (profile && profile !== stored.profile?.reference) {
        await checkProfileUnclaimed(session, projectId, profile, 'ProjectMembership.profile', membershipId);
      }
      await checkProjectReference(
        session,
        projectId,
        next.userConfiguration,
        stored.userConfiguration,
        ['UserConfiguration'],
        'ProjectMembership.userConfiguration',
      );
      await checkAccessReferences(session, projectId, next.access, stored.access, 'ProjectMembership.access');
      // The session runs as the server (the admin rule is checked above), so the rule is applied here.
      if (!caller.superAdmin) await checkKeepsAnAdmin(session.tx, stored, next);
      const ctx = { projectId, author: caller.profile };
      return (await session.update(ctx, next)).resource as ProjectMembership;
    });
    return reply.code(200).type('application/fhir+json').send(withoutProtectedFields(saved));
  });

  app.delete<{ Params: Params }>(path, async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId, membershipId } = request.params;
    caller.ctx.access?.checkScopes('ProjectMembership', 'delete');
    requireProjectAdmin(caller, projectId, 'remove members');
    await env.repository.transaction(async (session) => {
      const stored = await readMembership(session, projectId, membershipId);
      if (!caller.superAdmin) await checkKeepsAnAdmin(session.tx, stored, 'removed');
      await session.delete({ projectId, author: caller.profile }, 'ProjectMembership', membershipId);
    });
    return reply.code(200).type('application/fhir+json').send(allOk('Membership removed'));
  });
}
