import type { FastifyInstance } from 'fastify';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { authenticate } from '../auth/authenticate';
import { hashPassword } from '../auth/passwordHash';
import { errors } from '../fhir/fhirError';
import { withoutProtectedFields } from '../fhir/protectedFields';
import { invite } from './invitation';
import { parseInvite } from './inviteInput';
import { projectAppRoutes } from './projectAppRoutes';
import { projectDetailRoutes } from './projectDetailRoutes';
import { projectMemberRoutes } from './projectMemberRoutes';

const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/**
 * `POST /admin/projects/{projectId}/invite`: the way into a project. Allowed to super admins and to
 * the admins of that project (a project admin asking about another project gets 404, as if it did
 * not exist; members who are not admins get 403).
 */
export async function adminRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  await projectAppRoutes(app, env);
  await projectDetailRoutes(app, env);
  await projectMemberRoutes(app, env);
  app.post<{ Params: { projectId: string } }>('/admin/projects/:projectId/invite', async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId } = request.params;
    // An invitation makes a membership: a token narrowed by SMART scopes must be granted that.
    caller.ctx.access?.checkScopes('ProjectMembership', 'create');
    if (!caller.superAdmin) {
      if (!idPattern.test(projectId) || projectId !== caller.ctx.projectId)
        throw errors.notFoundWith('Project not found');
      if (!caller.projectAdmin) throw errors.forbidden('Forbidden: only project admins may invite people');
    }
    const input = parseInvite(request.body);
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    const result = await env.repository.transaction((session) =>
      invite(session, projectId, input, caller.profile, env.config.baseUrl, passwordHash),
    );
    if (result.email) {
      // The membership exists whatever happens to the e-mail; a failed send is logged, and the
      // person can still use "forgot password".
      await env.email
        .send(result.email)
        .catch((error: unknown) => request.log.error({ err: error }, 'invite e-mail failed'));
    }
    return reply.code(200).type('application/fhir+json').send(withoutProtectedFields(result.membership));
  });
}
