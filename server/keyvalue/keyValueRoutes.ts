import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { authenticate } from '../auth/authenticate';
import { errors } from '../fhir/fhirError';
import { checkKey, checkValue, maxKeysPerUser } from './keyValueLimits';
import { keyValuePartition } from './keyValuePartition';
import { KeyValueStore } from './keyValueStore';

type KeyParams = { key: string };

/**
 * `GET/PUT/DELETE /keyvalue/v1/{key}`: small text values kept per signed-in user (the Login's
 * user, whatever project or profile it signed in with) and per application the login was issued
 * to (keyValuePartition.ts), never visible to anyone else nor to the user's other apps.
 */
export async function keyValueRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const store = new KeyValueStore(env.repository.db);
  // Values are text: text/* arrives as a string (JSON bodies must be a JSON string).
  app.addContentTypeParser(/^text\//, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const owner = async (request: FastifyRequest<{ Params: KeyParams }>) => {
    const caller = await authenticate(env, request);
    checkKey(request.params.key);
    const user = caller.login.user?.reference;
    if (!user) throw errors.unauthorized();
    return keyValuePartition(user, caller.clientId);
  };

  app.get<{ Params: KeyParams }>('/keyvalue/v1/:key', async (request, reply) => {
    const value = await store.get(await owner(request), request.params.key);
    if (value === undefined) throw errors.notFound();
    return reply.code(200).type('text/plain; charset=utf-8').send(value);
  });

  app.put<{ Params: KeyParams }>('/keyvalue/v1/:key', async (request, reply) => {
    const user = await owner(request);
    const value = request.body;
    if (typeof value !== 'string') throw errors.invalid('The value must be text (Content-Type: text/plain)');
    checkValue(value);
    if ((await store.putWithinLimit(user, request.params.key, value, maxKeysPerUser)) === 'full') {
      throw errors.invalid(`At most ${maxKeysPerUser} keys per user and application; delete one first`, 'key');
    }
    return reply.code(204).send();
  });

  app.delete<{ Params: KeyParams }>('/keyvalue/v1/:key', async (request, reply) => {
    // Deleting a key that is not there is not an error: the end state is the same.
    await store.delete(await owner(request), request.params.key);
    return reply.code(204).send();
  });
}
