import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { errors } from '../fhir/fhirError';
import type { AuthEnvironment } from './authEnvironment';
import { resolveCaller, type Caller } from './callerResolver';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The caller of a request that needs one; 401 without a valid bearer token. Resolved once per request. */
export async function authenticate(env: AuthEnvironment, request: FastifyRequest): Promise<Caller> {
  if (request.caller) return request.caller;
  const token = bearerToken(request);
  if (!token) throw errors.unauthorized();
  const resolve = () => env.repository.transaction((session) => resolveCaller(env, session, token));
  const caller = env.callers
    ? await env.callers.get(
        token,
        unverifiedLoginId(token),
        (cached) => env.registry.forProject(cached.ctx.projectId),
        async () => {
          const resolved = await resolve();
          return { caller: resolved, expires: resolved.expires };
        },
      )
    : await resolve();
  request.caller = caller;
  return caller;
}

/** The token's login claim, read without checking the signature (only a cache key; the token is verified when resolved). */
function unverifiedLoginId(token: string): string | undefined {
  try {
    const claim = decodeJwt(token).login_id;
    return typeof claim === 'string' ? claim : undefined;
  } catch {
    return undefined;
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw errors.unauthorized();
  return request.caller;
}
