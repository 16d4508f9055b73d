import type { FastifyInstance } from 'fastify';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { authenticate } from '../auth/authenticate';
import { hashPassword } from '../auth/passwordHash';
import { quotaExceeded, takeEmailQuota } from '../email/emailQuota';
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
 * not exist; members who are not admins get 403). Invitation e-mails count in the project's hourly
 * e-mail limit (EMAIL_PROJECT_HOURLY_LIMIT; 429 past it).
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
    // An invitation makes the server e-mail any address, with words the admin chose (the project's
    // name, the person's): counted in the project's hourly e-mail limit like `/email/v1/send`, or any
    // project admin could send without bound. Taken before anything is made, so a 429 leaves nothing.
    if (input.sendEmail && !caller.superAdmin) {
      const limit = env.config.emailProjectHourlyLimit;
      const waitSeconds = await takeEmailQuota(env.repository.db, projectId, limit);
      if (waitSeconds !== undefined) {
        reply.header('retry-after', String(waitSeconds));
        throw quotaExceeded(limit, waitSeconds);
      }
    }
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
