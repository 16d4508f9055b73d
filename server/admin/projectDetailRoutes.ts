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
import { parseProjectSites } from './projectSiteInput';
import { awaitsAddressOwner } from '../auth/membershipState';

const maxMembers = 1000;

const mask = '********';

/**
 * The answers of these routes name the secrets without their values: project secrets and the
 * Google client secret and reCAPTCHA secret key of each site (the admin screen reads values it
 * may show through `GET fhir/R4/Project/{id}`, which the project's admins may read).
 */
function withSecretNames(project: Project): Project {
  const masked: Project = { ...project };
  if (project.secret) masked.secret = project.secret.map((setting) => ({ name: setting.name, valueString: mask }));
  if (project.site) {
    masked.site = project.site.map((site) => ({
      ...site,
      ...(site.googleClientSecret ? { googleClientSecret: mask } : {}),
      ...(site.recaptchaSecretKey ? { recaptchaSecretKey: mask } : {}),
    }));
  }
  return masked;
}

/**
 * `GET /admin/projects/{id}` (the project and its members, what Medplum's admin pages show),
 * `POST /admin/projects/{id}/secrets` (replaces `Project.secret`, which bots receive as
 * `event.secrets`) and `POST /admin/projects/{id}/sites` (replaces `Project.site`). Same rule as
 * every admin route: that project's admins and super admins.
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
        // Invited, waiting for the owner of the address to answer the e-mail (membershipState.ts).
        ...(awaitsAddressOwner(membership) ? { awaitingAddressOwner: true } : {}),
      }));
      // How invitations travel, so the admin screen can say whether anybody receives them.
      const email = { delivery: env.email.mode };
      return { project: withoutProtectedFields(withSecretNames(project)), members, email };
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

  app.post<{ Params: { projectId: string } }>('/admin/projects/:projectId/sites', async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId } = request.params;
    caller.ctx.access?.checkScopes('Project', 'update');
    requireProjectAdmin(caller, projectId, 'set project sites');
    const site = parseProjectSites(request.body);
    const saved = await env.repository.transaction(async (session) => {
      const project = await readProject(session, { reference: `Project/${projectId}` });
      if (!project) throw errors.notFoundWith('Project not found');
      const next: Project = { ...project, site };
      if (site.length === 0) delete next.site;
      return (await session.update({ projectId, author: caller.profile }, next)).resource as Project;
    });
    return reply
      .code(200)
      .type('application/fhir+json')
      .send(withoutProtectedFields(withSecretNames(saved)));
  });
}
