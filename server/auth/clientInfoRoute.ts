import type { FastifyInstance } from 'fastify';
import { errors } from '../fhir/fhirError';
import { readClient } from './accountStore';
import type { AuthEnvironment } from './authEnvironment';

/**
 * `GET /auth/clientinfo/{clientId}`: the name the `/oauth` page shows, so that the person asked to
 * sign in and to grant access knows which application asks. Anyone who has the client id (it is in
 * every authorize link) may read the name, as on any OAuth consent screen; nothing else of the
 * ClientApplication is shown (its secrets, addresses and description stay with its project).
 */
export async function clientInfoRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  app.get<{ Params: { clientId: string } }>('/auth/clientinfo/:clientId', async (request) => {
    // One read: no transaction (BEGIN and COMMIT would be two round trips more).
    const client = await env.repository.readOnly((session) => readClient(session, request.params.clientId));
    if (!client) throw errors.notFound();
    return { id: client.id, name: client.name ?? null };
  });
}
