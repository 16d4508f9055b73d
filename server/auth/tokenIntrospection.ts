import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientApplication, Login, ProjectMembership } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { readClient, readLogin, readReference } from './accountStore';
import { defaultClientId, type AuthEnvironment } from './authEnvironment';
import { OAuthError, oauthError, revokeLogin } from './loginService';
import { membershipUsable } from './membershipState';
import { plainSignInScope } from './requestedScope';

/** Who asks: a client named by Basic auth or client_id (+ client_secret) in the form. */
interface Requester {
  clientId: string;
  client?: ClientApplication;
  authenticated: boolean;
}

function sameSecret(given: string, expected: string | undefined): boolean {
  if (!expected) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The login a refresh token (`{loginId}.{secret}`) names, when the secret is its current one. */
function refreshTokenMatches(login: Login, secret: string): boolean {
  const hashed = createHash('sha256').update(secret).digest('base64url');
  return login.refreshSecret !== undefined && sameSecret(hashed, login.refreshSecret);
}

/**
 * RFC 7662 token introspection and RFC 7009 token revocation (a Fastify plugin).
 *
 * Introspection needs a confidential client's own credentials and only ever describes tokens of
 * that client's project: a client of project B learns nothing about project A's tokens (they are
 * `active: false` to it, the same answer as a made-up token). Revocation accepts the token's own
 * client (a public client by its client_id, as RFC 7009 §2.1 allows) and ends the whole sign-in:
 * access and refresh tokens stop at once, because every call re-reads the Login.
 */
export async function tokenIntrospectionRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const tx = <T>(work: (session: RepositorySession) => Promise<T>) => env.repository.transaction(work);

  const sendOAuthError = (reply: FastifyReply, error: OAuthError) => {
    if (error.status === 401) reply.header('www-authenticate', 'Basic realm="oauth2"');
    return reply
      .code(error.status)
      .header('cache-control', 'no-store')
      .send({ error: error.error, error_description: error.description });
  };

  function formOf(request: FastifyRequest): URLSearchParams {
    if (typeof request.body !== 'string')
      throw oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
    return new URLSearchParams(request.body);
  }

  async function requesterOf(request: FastifyRequest, form: URLSearchParams): Promise<Requester | undefined> {
    let clientId = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decodeURIComponent(colon < 0 ? decoded : decoded.slice(0, colon));
      secret = colon < 0 ? undefined : decodeURIComponent(decoded.slice(colon + 1));
    }
    if (!clientId) return undefined;
    if (clientId === defaultClientId && secret === undefined) return { clientId, authenticated: false };
    const client = await tx((session) => readClient(session, clientId as string));
    if (!client || client.status === 'off') throw oauthError('invalid_client', 'Client authentication failed', 401);
    if (secret === undefined) return { clientId, client, authenticated: false };
    if (!sameSecret(secret, client.secret) && !sameSecret(secret, client.retiringSecret))
      throw oauthError('invalid_client', 'Client authentication failed', 401);
    return { clientId, client, authenticated: true };
  }

  /** The live login behind an access or refresh token, or undefined (unknown, expired, ended). */
  async function loginOf(session: RepositorySession, token: string, hint: string | null) {
    const asAccess = async () => {
      try {
        const claims = await env.keys.verify(token);
        const loginId = typeof claims.login_id === 'string' ? claims.login_id : undefined;
        const login = loginId ? await readLogin(session, loginId) : undefined;
        return login ? { login, claims, kind: 'access' as const } : undefined;
      } catch {
        return undefined;
      }
    };
    const asRefresh = async () => {
      const [loginId, secret, extra] = token.split('.');
      if (!loginId || !secret || extra !== undefined) return undefined;
      const login = await readLogin(session, loginId);
      return login && refreshTokenMatches(login, secret)
        ? { login, claims: undefined, kind: 'refresh' as const }
        : undefined;
    };
    const found =
      hint === 'refresh_token'
        ? ((await asRefresh()) ?? (await asAccess()))
        : ((await asAccess()) ?? (await asRefresh()));
    if (!found || found.login.revoked || !found.login.granted) return undefined;
    return found;
  }

  const clientOfLogin = (login: Login) => login.client?.reference?.split('/')[1] ?? defaultClientId;

  app.post('/oauth2/introspect', async (request, reply) => {
    try {
      const form = formOf(request);
      const requester = await requesterOf(request, form);
      if (!requester?.client || !requester.authenticated)
        throw oauthError(
          'invalid_client',
          'Introspection needs the client_id and client_secret of a confidential client',
          401,
        );
      const token = form.get('token');
      if (!token) throw oauthError('invalid_request', 'Missing token');
      const answer = await tx(async (session) => {
        const found = await loginOf(session, token, form.get('token_type_hint'));
        if (!found?.login.membership) return { active: false };
        const membership = await readReference<ProjectMembership>(session, found.login.membership);
        const tokenProject = membership?.project?.reference?.split('/')[1];
        const clientProject = requester.client?.meta?.project;
        if (!membershipUsable(membership) || !tokenProject || tokenProject !== clientProject) return { active: false };
        const login = found.login;
        const claims = found.claims;
        return {
          active: true,
          token_type: found.kind === 'access' ? 'Bearer' : 'refresh_token',
          scope: login.scope ?? plainSignInScope,
          client_id: clientOfLogin(login),
          sub: login.user?.reference?.split('/')[1],
          username: login.user?.reference?.split('/')[1],
          ...(claims
            ? { iss: claims.iss, aud: claims.aud, exp: claims.exp, iat: claims.iat }
            : { iat: Math.floor(Date.parse(login.authTime as string) / 1000) }),
          fhirUser: membership.profile?.reference,
          ...(typeof claims?.patient === 'string' ? { patient: claims.patient } : {}),
        };
      });
      return reply.header('cache-control', 'no-store').send(answer);
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      throw error;
    }
  });

  app.post('/oauth2/revoke', async (request, reply) => {
    try {
      const form = formOf(request);
      const requester = await requesterOf(request, form);
      const token = form.get('token');
      if (!token) throw oauthError('invalid_request', 'Missing token');
      const found = await tx((session) => loginOf(session, token, form.get('token_type_hint')));
      // RFC 7009 §2.2: an unknown or already ended token is answered 200 like a revoked one.
      if (!found) return reply.header('cache-control', 'no-store').send({});
      const owner = clientOfLogin(found.login);
      const confidential = owner !== defaultClientId && found.login.codeChallenge === undefined;
      if ((requester?.clientId ?? defaultClientId) !== owner)
        throw oauthError('unauthorized_client', 'The token was issued to another client');
      // A client that signed in without PKCE proves itself with its secret here too.
      if (confidential && !requester?.authenticated)
        throw oauthError('invalid_client', 'Client authentication failed', 401);
      await tx((session) => revokeLogin(session, found.login.id as string));
      return reply.header('cache-control', 'no-store').send({});
    } catch (error) {
      if (error instanceof OAuthError) return sendOAuthError(reply, error);
      throw error;
    }
  });
}
