import type { FastifyInstance } from 'fastify';
import type { Project, ProjectMembership } from '@medplum/fhirtypes';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { readProject } from '../auth/accountStore';
import { authenticate } from '../auth/authenticate';
import { errors } from '../fhir/fhirError';
import { withoutProtectedFields } from '../fhir/protectedFields';
import { parseSearchRequest } from '../search/searchRequest';
import { requireProjectAdmin } from './projectAdminAccess';
import { parseProjectSettings } from './projectSettingsInput';

const maxMembers = 1000;

/** Secrets never leave the server (docs/security.md): an answer names them, without their values. */
function withSecretNames(project: Project): Project {
  if (!project.secret) return project;
  return { ...project, secret: project.secret.map((setting) => ({ name: setting.name, valueString: '********' })) };
}

/**
 * `GET /admin/projects/{id}` (the project and its members, what Medplum's admin pages show) and
 * `POST /admin/projects/{id}/secrets` (replaces `Project.secret`, which bots receive as
 * `event.secrets`). Same rule as every admin route: that project's admins and super admins.
 */
export async function projectDetailRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  app.get<{ Params: { projectId: string } }>('/admin/projects/:projectId', async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId } = request.params;
    caller.ctx.access?.checkScopes('ProjectMembership', 'read');
    requireProjectAdmin(caller, projectId, 'see the project administration');
    const answer = await env.repository.transaction(async (session) => {
      const project = await readProject(session, { reference: `Project/${projectId}` });
      if (!project) throw errors.notFoundWith('Project not found');
      const found = await session.search(
        parseSearchRequest(
          'ProjectMembership',
          { project: `Project/${projectId}`, _count: String(maxMembers) },
          session.registry,
        ),
      );
      const members = (found.resources as ProjectMembership[]).map((membership) => ({
        id: membership.id,
        user: membership.user,
        profile: membership.profile,
        accessPolicy: membership.accessPolicy,
        admin: membership.admin === true,
        active: membership.active !== false,
      }));
      return { project: withoutProtectedFields(withSecretNames(project)), members };
    });
    return reply.code(200).type('application/json').send(answer);
  });

  app.post<{ Params: { projectId: string } }>('/admin/projects/:projectId/secrets', async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId } = request.params;
    caller.ctx.access?.checkScopes('Project', 'update');
    requireProjectAdmin(caller, projectId, 'set project secrets');
    const secret = parseProjectSettings(request.body);
    const saved = await env.repository.transaction(async (session) => {
      const project = await readProject(session, { reference: `Project/${projectId}` });
      if (!project) throw errors.notFoundWith('Project not found');
      const ctx = { projectId, author: caller.profile };
      return (await session.update(ctx, { ...project, secret })).resource as Project;
    });
    return reply
      .code(200)
      .type('application/fhir+json')
      .send(withoutProtectedFields(withSecretNames(saved)));
  });
}
