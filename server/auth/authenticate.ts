import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { errors } from '../fhir/fhirError';
import type { AuthEnvironment } from './authEnvironment';
import type { ReadPrecondition } from '../fhir/readPrecondition';
import { resolveCaller, type Caller } from './callerResolver';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    /** A cached caller whose check rides on the read's own statement (authenticateForRead). */
    uncheckedCaller?: { caller: Caller; precondition: ReadPrecondition };
  }
  interface FastifyContextConfig {
    /** The route is a read by id that runs through `withCheckedCaller`. */
    callerCheckedByRead?: boolean;
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
        () => unverifiedLoginId(token),
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

/**
 * For a route that reads one row through `withCheckedCaller`: a cached caller is taken unchecked,
 * and its check (callerCache.ts's stamp) joins the read's statement instead of costing a round
 * trip of its own before it. `request.caller` stays unset until that check has held, so nothing
 * else can act on the unchecked caller. Without a usable cache entry: as `authenticate`.
 */
export async function authenticateForRead(env: AuthEnvironment, request: FastifyRequest): Promise<void> {
  if (request.caller) return;
  const token = bearerToken(request);
  if (!token) throw errors.unauthorized();
  const pending = env.callers?.peek(token, (cached) => env.registry.forProject(cached.ctx.projectId));
  if (pending) request.uncheckedCaller = pending;
  else await authenticate(env, request);
}

/**
 * Runs `read` as the request's caller. With an unchecked caller (authenticateForRead) the read
 * carries the check as its precondition; its outcome, answer or error, counts only if the check
 * held. Otherwise (the stamp changed, or the read ended before reaching the database: a bad id, an
 * interaction the policy refuses) the caller is checked or resolved again the ordinary way — a
 * signed-out or revoked caller gets its 401 there — and the read runs again as that caller.
 */
export async function withCheckedCaller<T>(
  env: AuthEnvironment,
  request: FastifyRequest,
  read: (caller: Caller, precondition?: ReadPrecondition) => Promise<T>,
): Promise<T> {
  const pending = request.uncheckedCaller;
  request.uncheckedCaller = undefined;
  if (pending) {
    let held = false;
    const precondition: ReadPrecondition = {
      ...pending.precondition,
      holds: (row) => (held = pending.precondition.holds(row)),
    };
    try {
      const value = await read(pending.caller, precondition);
      if (held) {
        request.caller = pending.caller;
        return value;
      }
    } catch (error) {
      if (held) {
        request.caller = pending.caller;
        throw error;
      }
    }
  }
  return read(await authenticate(env, request));
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
