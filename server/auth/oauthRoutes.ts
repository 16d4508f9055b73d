import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import type { ClientApplication, HumanName, Login, Resource, User } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { findUserByEmail, findUserByExternalId, membershipsOf, readClient, readReference } from './accountStore';
import { defaultClientId, type AuthEnvironment } from './authEnvironment';
import { authenticate } from './authenticate';
import {
  createLogin,
  exchangeCode,
  grantTokens,
  OAuthError,
  oauthError,
  refreshTokens,
  revokeLogin,
} from './loginService';
import { verifyCodeChallenge } from './pkce';
import { isRegisteredRedirectUri } from './clientRedirect';
import { audienceProblem } from './smartAudience';
import { requestedScope } from './requestedScope';
import { addressVerified } from './addressOwnership';
import { parseAuthorizePrompt } from '../../data-provider/rules';
import { ClientKeySets, KeySetUnavailable } from './clientKeySets';
import { subjectTokenClaims } from './subjectTokenClaims';
import { scopeSet, userInfoClaims } from './userInfoClaims';

const clientAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const tokenExchangeGrant = 'urn:ietf:params:oauth:grant-type:token-exchange';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** OAuth2 / OpenID Connect / SMART endpoints (a Fastify plugin). */
export async function oauthRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const tx = <T>(work: (session: RepositorySession) => Promise<T>) => env.repository.transaction(work);
  const base = env.config.baseUrl;
  const tokenUrl = `${base}oauth2/token`;
  const fhirBase = `${base}fhir/R4`;
  // URLs a project stored are fetched under the outbound address rule (server/net/outboundAddress.ts).
  const allowedHosts = env.config.botFetchAllowedHosts ?? [];
  const clientKeys = new ClientKeySets({ allowedHosts });

  const sendOAuthError = (reply: FastifyReply, error: OAuthError) =>
    reply
      .code(error.status)
      .header('cache-control', 'no-store')
      .send({ error: error.error, error_description: error.description });

  /** The client named by Basic auth, client_secret or a signed client assertion; undefined for public clients. */
  async function authenticateClient(
    request: FastifyRequest,
    form: URLSearchParams,
  ): Promise<{ client?: ClientApplication; clientId?: string; authenticated: boolean }> {
    let clientId = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (basic) {
      const [id, pass] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      secret = decodeURIComponent(pass ?? '');
    }
    const assertion = form.get('client_assertion');
    if (assertion) {
      if (form.get('client_assertion_type') !== clientAssertionType) {
        throw oauthError('invalid_request', `client_assertion_type must be ${clientAssertionType}`);
      }
      const client = await verifyClientAssertion(assertion);
      return { client, clientId: client.id, authenticated: true };
    }
    if (!clientId) return { authenticated: false };
    const client = await tx((session) => readClient(session, clientId as string));
    if (!client || client.status === 'off') {
      if (clientId === defaultClientId) return { clientId, authenticated: false };
      throw oauthError('invalid_client', 'Client not found', 401);
    }
    if (secret !== undefined) {
      if (!client.secret || (secret !== client.secret && secret !== client.retiringSecret)) {
        throw oauthError('invalid_client', 'Invalid client secret', 401);
      }
      return { client, clientId, authenticated: true };
    }
    return { client, clientId, authenticated: false };
  }

  /** A JWT the client signed with a key published at its jwksUri (RFC 7523). */
  async function verifyClientAssertion(assertion: string): Promise<ClientApplication> {
    const [, payloadPart] = assertion.split('.');
    let issuer: string | undefined;
    try {
      issuer = (JSON.parse(Buffer.from(payloadPart ?? '', 'base64url').toString('utf8')) as { iss?: string }).iss;
    } catch {
      throw oauthError('invalid_client', 'Malformed client assertion', 401);
    }
    const client = issuer ? await tx((session) => readClient(session, issuer as string)) : undefined;
    if (!client?.jwksUri) throw oauthError('invalid_client', 'Unknown client or client without jwksUri', 401);
    try {
      await jwtVerify(assertion, clientKeys.keyFinder(client.jwksUri), {
        issuer: client.id,
        subject: client.id,
        audience: tokenUrl,
      });
    } catch (error) {
      // One answer however the key set failed (refused address, closed port, status, not a key set):
      // the token endpoint must not tell a project admin what listens where.
      if (error instanceof KeySetUnavailable) {
        app.log.warn({ clientId: client.id, reason: error.reason }, 'client key set unavailable');
        throw oauthError('invalid_client', error.message, 401);
      }
      throw oauthError('invalid_client', `Invalid client assertion: ${(error as Error).message}`, 401);
    }
    return client;
  }

  /** A client acting as itself: its own membership, no user. */
  async function clientTokens(client: ClientApplication, scope: string | undefined) {
    return tx(async (session) => {
      const memberships = await membershipsOf(session, { reference: `ClientApplication/${client.id}` });
      if (memberships.length === 0) throw oauthError('invalid_client', 'The client has no project membership', 401);
      const login = await createLogin(session, { clientSubject: client, client, authMethod: 'client', scope });
      return grantTokens(env, session, {
        ...login,
        membership: { reference: `ProjectMembership/${memberships[0].id}` },
        project: memberships[0].project,
      } as Login);
    });
  }

  app.post('/oauth2/token', async (request, reply) => {
    try {
      if (typeof request.body !== 'string') {
        throw oauthError('invalid_request', 'The body must be application/x-www-form-urlencoded');
      }
      const form = new URLSearchParams(request.body);
      const grantType = form.get('grant_type');
      if (!grantType) throw oauthError('invalid_request', 'Missing grant_type');
      const auth = await authenticateClient(request, form);
      let response;
      if (grantType === 'authorization_code') {
        const code = form.get('code');
        if (!code) throw oauthError('invalid_request', 'Missing code');
        const redemption = {
          code,
          verifier: form.get('code_verifier') ?? undefined,
          redirectUri: form.get('redirect_uri') ?? undefined,
        };
        response = await tx((session) => exchangeCode(env, session, redemption, auth, verifyCodeChallenge));
      } else if (grantType === 'refresh_token') {
        const refreshToken = form.get('refresh_token');
        if (!refreshToken) throw oauthError('invalid_request', 'Missing refresh_token');
        response = await tx((session) => refreshTokens(env, session, refreshToken, auth));
      } else if (grantType === 'client_credentials') {
        if (!auth.client || !auth.authenticated)
          throw oauthError('invalid_client', 'Client authentication failed', 401);
        response = await clientTokens(auth.client, form.get('scope') ?? undefined);
      } else if (grantType === jwtBearerGrant) {
        const assertion = form.get('assertion');
        if (!assertion) throw oauthError('invalid_request', 'Missing assertion');
        response = await clientTokens(await verifyClientAssertion(assertion), form.get('scope') ?? undefined);
      } else if (grantType === tokenExchangeGrant) {
        response = await tokenExchange(form, auth.client);
      } else {
        throw oauthError('unsupported_grant_type', `Unsupported grant_type "${grantType}"`);
      }
      return reply.header('cache-control', 'no-store').send(response);
    } catch (error) {
      if (error instanceof OAuthError) {
        const loginId = error.revokeLoginId;
        if (loginId) await tx((session) => revokeLogin(session, loginId));
        return sendOAuthError(reply, error);
      }
      throw error;
    }
  });

  /**
   * RFC 8693: an access token of the client's identity provider becomes one of ours for the same
   * person. The provider is whatever the client's project configured, so its word counts in that
   * project only: the person must hold a membership there, and no other membership is ever used
   * (a project admin who points userInfoUrl at their own server must not become anyone elsewhere).
   */
  async function tokenExchange(form: URLSearchParams, client: ClientApplication | undefined) {
    if (!client) throw oauthError('invalid_request', 'Token exchange needs a client_id');
    const subjectToken = form.get('subject_token');
    if (!subjectToken) throw oauthError('invalid_request', 'Missing subject_token');
    const tokenType = form.get('subject_token_type');
    if (tokenType !== 'urn:ietf:params:oauth:token-type:access_token') {
      throw oauthError('invalid_request', 'subject_token_type must be urn:ietf:params:oauth:token-type:access_token');
    }
    const idp = client.identityProvider;
    const clientProject = client.meta?.project;
    if (!idp?.userInfoUrl || !clientProject)
      throw oauthError('invalid_request', 'The client has no identity provider for token exchange');
    const claims = await exchangeSubject(idp.userInfoUrl, subjectToken);
    return tx(async (session) => {
      const user = idp.useSubject
        ? await findUserByExternalId(session, claims.sub)
        : claims.email
          ? await findUserByEmail(session, claims.email)
          : undefined;
      const memberships = user ? await membershipsOf(session, { reference: `User/${user.id}` }, clientProject) : [];
      // One answer whether the account is unknown or belongs elsewhere: the exchange reveals no accounts.
      if (!user || memberships.length === 0)
        throw oauthError('invalid_grant', "No account of the client's project matches the subject token");
      if (memberships.length > 1)
        throw oauthError('invalid_grant', "The account has several profiles in the client's project");
      const membership = memberships[0];
      const login = await createLogin(session, {
        user: user as User,
        client,
        authMethod: 'exchange',
        scope: form.get('scope') ?? undefined,
        projectId: clientProject,
      });
      return grantTokens(env, session, {
        ...login,
        membership: { reference: `ProjectMembership/${membership.id}` },
        project: membership.project,
      } as Login);
    });
  }

  /** Who the identity provider says the subject token belongs to (subjectTokenClaims.ts: outbound rule, one refusal). */
  function exchangeSubject(userInfoUrl: string, subjectToken: string): Promise<{ sub: string; email?: string }> {
    return subjectTokenClaims(userInfoUrl, subjectToken, {
      allowedHosts,
      onRefused: (reason) => app.log.warn({ reason }, 'token exchange: identity provider did not vouch'),
    });
  }

  app.get<{ Querystring: Record<string, string | undefined> }>('/oauth2/authorize', async (request, reply) => {
    const query = request.query;
    const clientId = query.client_id;
    if (!clientId) throw errors.invalid('Missing client_id', 'client_id');
    const client = await tx((session) => readClient(session, clientId));
    if (!client || client.status === 'off') throw errors.invalid('Client not found', 'client_id');
    const redirectUri = query.redirect_uri;
    // Never redirect to an address the client did not register (that would hand codes to anyone), nor
    // to a registered one with a scheme that runs script (saved before that rule existed).
    if (typeof redirectUri !== 'string' || !isRegisteredRedirectUri(client, redirectUri))
      throw errors.invalid('Invalid redirect_uri', 'redirect_uri');
    const back = new URL(redirectUri);
    const refuse = (error: string, description: string) => {
      back.searchParams.set('error', error);
      back.searchParams.set('error_description', description);
      if (query.state) back.searchParams.set('state', query.state);
      return reply.redirect(back.toString());
    };
    if (query.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
    const prompt = parseAuthorizePrompt(query.prompt);
    if (!prompt.ok) return refuse(prompt.error, prompt.description);
    const audience = audienceProblem(query.aud, requestedScope(query.scope, client), fhirBase);
    if (audience) return refuse('invalid_request', audience);
    if (!client.pkceOptional) {
      if (!query.code_challenge) return refuse('invalid_request', 'Missing code_challenge (PKCE is required)');
      if (query.code_challenge_method !== 'S256')
        return refuse('invalid_request', 'code_challenge_method must be S256');
    }
    // The web app's /oauth page signs the user in and sends them back with a code.
    const signIn = new URL(`${base}oauth`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) signIn.searchParams.set(key, value);
    return reply.redirect(signIn.toString());
  });

  const logout = async (request: FastifyRequest) => {
    const caller = await authenticate(env, request);
    await tx((session) => revokeLogin(session, caller.login.id as string));
    return { ok: true };
  };
  app.post('/oauth2/logout', logout);
  app.get('/oauth2/logout', logout);

  // OpenID Connect Core §5.3: each claim only under the scope that asks for it (userInfoClaims.ts).
  app.get('/oauth2/userinfo', async (request, reply) => {
    const caller = await authenticate(env, request);
    const scopes = scopeSet(caller.scope);
    if (!scopes.has('openid')) {
      // RFC 6750 §3.1: a token without `openid` was not issued for the UserInfo endpoint.
      return reply
        .code(403)
        .header('cache-control', 'no-store')
        .header('www-authenticate', 'Bearer error="insufficient_scope", scope="openid"')
        .send({ error: 'insufficient_scope', error_description: 'The access token was not granted the openid scope' });
    }
    const claims = await tx(async (session) => {
      const user = await readReference<User | ClientApplication>(session, caller.login.user);
      const profile = await readReference<Resource & { name?: HumanName[] }>(session, caller.profile);
      const person = user?.resourceType === 'User' ? user : undefined;
      return userInfoClaims(scopes, {
        subject: user?.id ?? (caller.login.user?.reference?.split('/')[1] as string),
        profileReference: caller.profile.reference,
        name: profile?.name?.[0],
        ...(person && scopes.has('email')
          ? { email: person.email, emailVerified: await addressVerified(session, person) }
          : {}),
      });
    });
    return reply.header('cache-control', 'no-store').send(claims);
  });

  app.get('/.well-known/jwks.json', async () => env.keys.jwks());
  // Discovery documents: smartDiscovery.ts.
}
