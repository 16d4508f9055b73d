import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Bot, ClientApplication, ProjectMembership, Reference, Resource } from '@medplum/fhirtypes';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { readProject } from '../auth/accountStore';
import { authenticate } from '../auth/authenticate';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { withoutProtectedFields } from '../fhir/protectedFields';
import { parseAppInput } from './appInput';
import { requireProjectAdmin } from './projectAdminAccess';

/** Creates `resource` in the project with the membership that lets it act there (as Medplum does). */
async function createWithMembership<T extends Resource>(
  session: RepositorySession,
  projectId: string,
  author: Reference,
  resource: T,
): Promise<T> {
  const project = await readProject(session, { reference: `Project/${projectId}` });
  if (!project) throw errors.notFoundWith('Project not found');
  const ctx = { projectId, author };
  const created = (await session.create(ctx, resource)) as T;
  const reference = {
    reference: `${created.resourceType}/${created.id}`,
    display: (resource as { name?: string }).name,
  };
  await session.create(ctx, {
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${projectId}`, display: project.name },
    user: reference,
    profile: reference,
  } as ProjectMembership);
  return created;
}

/**
 * `POST /admin/projects/{projectId}/bot` and `/client` (what `medplum bot create` and Medplum's
 * admin pages call): a Bot or a ClientApplication (with a generated secret) plus its membership.
 */
export async function projectAppRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  app.post<{ Params: { projectId: string } }>('/admin/projects/:projectId/bot', async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId } = request.params;
    caller.ctx.access?.checkScopes('Bot', 'create');
    requireProjectAdmin(caller, projectId, 'create bots');
    const input = parseAppInput(request.body, 'bot');
    const bot = await env.repository.transaction((session) =>
      createWithMembership<Bot>(session, projectId, caller.profile, {
        resourceType: 'Bot',
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        runtimeVersion: (input.runtimeVersion ?? 'vmcontext') as Bot['runtimeVersion'],
        code: 'exports.handler = async () => undefined;',
      }),
    );
    return reply.code(201).type('application/fhir+json').send(withoutProtectedFields(bot));
  });

  app.post<{ Params: { projectId: string } }>('/admin/projects/:projectId/client', async (request, reply) => {
    const caller = await authenticate(env, request);
    const { projectId } = request.params;
    caller.ctx.access?.checkScopes('ClientApplication', 'create');
    requireProjectAdmin(caller, projectId, 'create client applications');
    const input = parseAppInput(request.body, 'client');
    const client = await env.repository.transaction((session) =>
      createWithMembership<ClientApplication>(session, projectId, caller.profile, {
        resourceType: 'ClientApplication',
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        ...(input.redirectUri ? { redirectUri: input.redirectUri } : {}),
        ...(input.launchUri ? { launchUri: input.launchUri } : {}),
        secret: randomBytes(32).toString('hex'),
      }),
    );
    return reply.code(201).type('application/fhir+json').send(client);
  });
}
