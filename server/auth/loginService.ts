import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClientApplication, Login, ProjectMembership, Reference, User } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession, RequestContext } from '../fhir/repository';
import { membershipsOf, readClient, readLogin, readProject, readReference } from './accountStore';
import {
  accessTokenSeconds,
  accountsProjectId,
  codeLifetimeMs,
  defaultClientId,
  type AuthEnvironment,
} from './authEnvironment';
import { tokenLifetimeSeconds } from '../../data-provider/rules';
import { refreshTokenExpired } from './refreshTokenExpiry';
import { systemAuthor } from '../definitions/loadDefinitions';
import { mfaPending, requireMfaDone } from './mfaPending';
import { clientProjectScope, outsideClientProject } from './clientProject';
import { launchContextFor, launchReference, needsPatientChoice } from './launchContext';
import { tokenRedirectUriProblem } from './clientRedirect';
import { awaitingOwnerMessage, awaitsAddressOwner, membershipUsable } from './membershipState';
import { waitingMembershipsOf } from './addressOwnership';
import { plainSignInScope, requestedScope } from './requestedScope';
import { withAccessTokenExpiry } from './accessTokenExpiry';

/** The sign-in record's lifecycle: created at the first step, completed by a code, ended by logout. */

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

function sameHash(secret: string, stored: string | undefined): boolean {
  if (!stored) return false;
  const a = Buffer.from(hashSecret(secret));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Where a Login is stored: with the accounts, whatever project it is for (`Login.project` names
 * that). A sign-in's id is the key to its pending steps (profile, scopes, the patient picker), so
 * its record must not be readable by the project's admins or by members whose policy grants `*`:
 * they could drive another member's consent step, or list patients as that member. An update
 * keeps a resource in its project, so the record stays where it was created.
 */
const loginContext: RequestContext = { projectId: accountsProjectId, author: systemAuthor };

export interface LoginStart {
  user?: User;
  client?: ClientApplication;
  /** For ClientApplications signing in as themselves. */
  clientSubject?: ClientApplication;
  authMethod: 'password' | 'google' | 'external' | 'client' | 'exchange';
  scope?: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  remember?: boolean;
  remoteAddress?: string;
  userAgent?: string;
  projectId?: string;
  /** SMART EHR launch: the id of the SmartAppLaunch the EHR saved (launchContext.ts). */
  launch?: string;
  /**
   * The `redirect_uri` of the authorization request (the `/oauth` page sends the app's), already
   * checked against the client's registered ones: the code is then redeemed only with the same
   * value (RFC 6749 §4.1.3; `exchangeCode`).
   */
  redirectUri?: string;
  /** A sign-in continued from this Hearth EMR session (sessionContinuation.ts): its two-factor step counts. */
  continuedFrom?: Login;
}

export async function createLogin(session: RepositorySession, start: LoginStart): Promise<Login> {
  const subject = start.user ?? start.clientSubject;
  const extension = [
    // `remember` asks for a long-lived refresh token; kept on the record for the refresh grant.
    ...(start.remember ? [rememberExtension] : []),
    ...(start.redirectUri ? [{ url: redirectUriUrl, valueUri: start.redirectUri }] : []),
    ...(start.continuedFrom
      ? [
          { url: continuedFromUrl, valueReference: { reference: `Login/${start.continuedFrom.id}` } },
          // The person authenticated when that session began, not now: its clock goes on here.
          { url: sessionStartUrl, valueDateTime: sessionStartOf(start.continuedFrom) },
        ]
      : []),
  ];
  const login: Login = {
    resourceType: 'Login',
    user: { reference: `${subject?.resourceType}/${subject?.id}` },
    ...(start.client ? { client: { reference: `ClientApplication/${start.client.id}` } } : {}),
    authMethod: start.authMethod,
    authTime: new Date().toISOString(),
    scope: requestedScope(start.scope, start.client ?? start.clientSubject),
    ...(start.nonce ? { nonce: start.nonce } : {}),
    ...(start.codeChallenge
      ? {
          codeChallenge: start.codeChallenge,
          codeChallengeMethod: start.codeChallengeMethod as Login['codeChallengeMethod'],
        }
      : {}),
    ...(start.projectId ? { project: { reference: `Project/${start.projectId}` } } : {}),
    ...(launchReference(start.launch) ? { launch: launchReference(start.launch) } : {}),
    remoteAddress: start.remoteAddress,
    userAgent: start.userAgent,
    mfaVerified: start.continuedFrom?.mfaVerified === true,
    granted: false,
    revoked: false,
    ...(extension.length > 0 ? { extension } : {}),
  };
  return (await session.create(loginContext, login, { trusted: true })) as Login;
}

const rememberExtension = { url: 'https://hearth-emr.org/fhir/StructureDefinition/login-remember', valueBoolean: true };

/** Names the session a sign-in was continued from, so the account's history shows where it came from. */
export const continuedFromUrl = 'https://hearth-emr.org/fhir/StructureDefinition/login-continued-from';

const sessionStartUrl = 'https://hearth-emr.org/fhir/StructureDefinition/login-session-start';

/** The redirect_uri the authorization request named (LoginStart.redirectUri). */
const redirectUriUrl = 'https://hearth-emr.org/fhir/StructureDefinition/login-redirect-uri';

export function authorizedRedirectUri(login: Login): string | undefined {
  return (login.extension ?? []).find((e) => e.url === redirectUriUrl)?.valueUri;
}

/**
 * When the person behind this login last proved who they are: its own `authTime`, or, for a sign-in
 * continued from a Hearth EMR session, when that session began. The session's length and the
 * id_token's `auth_time` count from here — otherwise a session about to end could continue into an
 * app and start a full new one (a day, or two weeks with "Remember me") without any credential.
 * (`authTime` itself stays the record's creation time: the code and the pending steps expire by it.)
 */
export function sessionStartOf(login: Login): string {
  const start = (login.extension ?? []).find((e) => e.url === sessionStartUrl)?.valueDateTime;
  return start ?? (login.authTime as string);
}

export function remembers(login: Login): boolean {
  return (login.extension ?? []).some((e) => e.url === rememberExtension.url && e.valueBoolean === true);
}

export async function saveLogin(session: RepositorySession, login: Login): Promise<Login> {
  const { resource } = await session.update(loginContext, login);
  return resource as Login;
}

/**
 * A login still in its sign-in steps: not granted, not revoked, recent, and past its two-factor
 * step unless `mfa: 'may be pending'` (only the MFA step itself and the status answer).
 */
export async function pendingLogin(
  session: RepositorySession,
  loginId: unknown,
  options: { mfa?: 'may be pending' } = {},
): Promise<Login> {
  if (typeof loginId !== 'string' || loginId === '') throw errors.invalid('Missing login', 'login');
  const login = await readLogin(session, loginId);
  if (!login) throw errors.invalid('Login not found', 'login');
  if (login.revoked) throw errors.invalid('Login revoked', 'login');
  if (login.granted) throw errors.invalid('Login already granted', 'login');
  if (Date.now() - Date.parse(login.authTime as string) > codeLifetimeMs * 3) {
    throw errors.invalid('Login expired: sign in again', 'login');
  }
  if (options.mfa !== 'may be pending') await requireMfaDone(session, login);
  return login;
}

export type LoginStep =
  | { login: string; code: string }
  | { login: string; mfaRequired: true }
  | { login: string; memberships: MembershipChoice[] }
  | { login: string; scopes: string[]; patientChoice?: true };

export interface MembershipChoice {
  id: string;
  project: Reference;
  profile: Reference;
  admin?: boolean;
  identifier?: ProjectMembership['identifier'];
}

const basicScopes = new Set(['openid', 'profile', 'email', 'offline_access', 'offline', 'online_access', 'fhirUser']);

/** The scopes the user must confirm (SMART resource and launch scopes); none for a plain sign-in. */
export function scopesToConfirm(scope: string | undefined): string[] {
  return (scope ?? '').split(/\s+/).filter((s) => s.length > 0 && !basicScopes.has(s));
}

/** After the credentials (and MFA): choose a membership when there are several, else finish. */
export async function continueLogin(session: RepositorySession, login: Login, user: User): Promise<LoginStep> {
  if (user.mfaEnrolled && !login.mfaVerified) return { login: login.id as string, mfaRequired: true };
  const requested = login.project?.reference?.split('/')[1];
  const confined = await clientProjectScope(session, login);
  if (confined && requested && confined !== requested) throw errors.forbidden(outsideClientProject);
  const projectId = confined ?? requested;
  const memberships = await membershipsOf(session, { reference: `User/${user.id}` }, projectId);
  // Nothing usable, but an invitation that waits for the owner of the address: say so, rather than
  // offer to create a project (or refuse the app as if there were no invitation).
  if (
    memberships.length === 0 &&
    (await waitingMembershipsOf(session, { reference: `User/${user.id}` }, projectId)).length > 0
  ) {
    throw errors.forbidden(awaitingOwnerMessage);
  }
  // An app's sign-in offers no "create a project": the user is a member of its project or is refused.
  if (confined && memberships.length === 0) throw errors.forbidden(outsideClientProject);
  if (memberships.length === 1) return chooseMembership(session, login, memberships[0]);
  return {
    login: login.id as string,
    memberships: await Promise.all(memberships.map((membership) => describeMembership(session, membership))),
  };
}

export async function describeMembership(
  session: RepositorySession,
  membership: ProjectMembership,
): Promise<MembershipChoice> {
  const project = await readProject(session, membership.project);
  return {
    id: membership.id as string,
    project: { reference: membership.project?.reference, display: project?.name ?? membership.project?.display },
    profile: membership.profile as Reference,
    ...(membership.admin ? { admin: true } : {}),
    ...(membership.identifier ? { identifier: membership.identifier } : {}),
  };
}

/** Binds the login to one membership (its project and profile), then asks for scopes or finishes. */
export async function chooseMembership(
  session: RepositorySession,
  login: Login,
  membership: ProjectMembership,
): Promise<LoginStep> {
  if (awaitsAddressOwner(membership)) throw errors.forbidden(awaitingOwnerMessage);
  if (!membershipUsable(membership)) throw errors.forbidden('This membership is not active');
  const project = await readProject(session, membership.project);
  if (!project) throw errors.invalid('The membership names a project that does not exist', 'profile');
  const bound: Login = {
    ...login,
    membership: { reference: `ProjectMembership/${membership.id}` },
    project: { reference: `Project/${project.id}` },
    profileType: membership.profile?.reference?.split('/')[0] as Login['profileType'],
    admin: membership.admin === true,
    superAdmin: project.superAdmin === true,
  };
  const toConfirm = scopesToConfirm(login.scope);
  if (toConfirm.length > 0 && !hasScopeConfirmation(login)) {
    const saved = await saveLogin(session, bound);
    // A clinician's standalone launch: the consent step also asks which patient (launchPatientChoice.ts).
    return {
      login: saved.id as string,
      scopes: toConfirm,
      ...(needsPatientChoice(bound) ? { patientChoice: true as const } : {}),
    };
  }
  return issueCode(session, bound);
}

const scopeConfirmed = {
  url: 'https://hearth-emr.org/fhir/StructureDefinition/login-scope-confirmed',
  valueBoolean: true,
};

function hasScopeConfirmation(login: Login): boolean {
  return (login.extension ?? []).some((e) => e.url === scopeConfirmed.url);
}

/** The user's choice of scopes (a subset of what the client asked for). */
export async function confirmScope(session: RepositorySession, login: Login, scope: string): Promise<LoginStep> {
  if (!login.membership) throw errors.invalid('Choose a profile first', 'login');
  const requested = new Set((login.scope ?? '').split(/\s+/));
  const chosen = scope.split(/\s+/).filter((s) => s.length > 0);
  const extra = chosen.filter((s) => !requested.has(s));
  if (extra.length > 0) throw errors.invalid(`Scope not requested by the client: ${extra.join(' ')}`, 'scope');
  const kept = [...new Set([...[...requested].filter((s) => basicScopes.has(s)), ...chosen])].join(' ');
  return issueCode(session, { ...login, scope: kept, extension: [...(login.extension ?? []), scopeConfirmed] });
}

async function issueCode(session: RepositorySession, login: Login): Promise<LoginStep> {
  // Every path to a code passes here: none may skip the two-factor step.
  await requireMfaDone(session, login);
  const code = newSecret();
  const saved = await saveLogin(session, { ...login, code: hashSecret(code) });
  return { login: saved.id as string, code };
}

export interface TokenResponse {
  token_type: 'Bearer';
  access_token: string;
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
  project: Reference;
  profile: Reference;
  /** SMART: the signed-in profile, and the launch context when there is one. */
  fhirUser?: string;
  patient?: string;
  encounter?: string;
}

/** Who redeems a code or refresh token: the client named, and whether it proved it (secret or assertion). */
export interface TokenCaller {
  clientId?: string;
  authenticated: boolean;
}

const clientOf = (login: Login) => login.client?.reference?.split('/')[1];

/**
 * A code or refresh token of a login without PKCE (a `pkceOptional` confidential client) is worth
 * nothing without the client's own credentials: whoever intercepts it cannot redeem it.
 */
function requireClientCredentials(login: Login, caller: TokenCaller): void {
  const loginClient = clientOf(login);
  if (login.codeChallenge || !loginClient) return;
  if (!caller.authenticated || caller.clientId !== loginClient) {
    throw oauthError(
      'invalid_client',
      'Client authentication (client secret or private_key_jwt) is required without PKCE',
      401,
    );
  }
}

/**
 * A code or refresh token goes back only to the client it was issued to (RFC 6749 §4.1.3, §6): the
 * client the caller authenticated as, else the `client_id` it names. A sign-in of this web app
 * names no ClientApplication: only its own client id (or none) redeems it, never another app's.
 */
function requireSameClient(login: Login, caller: TokenCaller, what: 'Code' | 'Refresh token'): void {
  if (caller.clientId !== undefined && caller.clientId !== (clientOf(login) ?? defaultClientId))
    throw oauthError('invalid_grant', `${what} was issued to another client`);
}

/**
 * Reads a Login for a grant and holds its row until the transaction ends. Concurrent redemptions
 * of one code or refresh token queue here, and each reads what the one before it wrote (granted, a
 * rotated refresh secret), so exactly one of them is granted; the others are replays. Without the
 * lock every one of them read the same unredeemed Login on native PostgreSQL and every one got
 * tokens (PGlite runs one transaction at a time, which hid it).
 */
async function lockedLogin(session: RepositorySession, loginId: string): Promise<Login | undefined> {
  if (!/^[A-Za-z0-9\-.]{1,64}$/.test(loginId)) return undefined;
  const rows = await session.tx.query<{ id: string }>(
    `SELECT id FROM resources WHERE resource_type = 'Login' AND id = $1 FOR UPDATE`,
    [loginId],
  );
  return rows.length > 0 ? readLogin(session, loginId) : undefined;
}

/** What a token request for the authorization code grant brings. */
export interface CodeRedemption {
  code: string;
  verifier?: string;
  /** The token request's `redirect_uri`. */
  redirectUri?: string;
}

/**
 * The authorization code grant: one use, within its lifetime, by the client it was issued to, with
 * the redirect URI of the authorization request and the PKCE verifier when a challenge was set.
 *
 * The hash of the code stays on the Login once it is redeemed, so a second use is recognised: it
 * ends the Login, and with it the tokens the first use got (RFC 6749 §4.1.2, §10.5) — a code that
 * is presented twice has leaked. The caller revokes it outside this transaction, which the error
 * rolls back.
 */
export async function exchangeCode(
  env: AuthEnvironment,
  session: RepositorySession,
  redemption: CodeRedemption,
  caller: TokenCaller,
  checkVerifier: (verifier: string, challenge: string, method: string) => boolean,
): Promise<TokenResponse> {
  const rows = await session.tx.query<{ id: string }>(
    `SELECT id FROM resources WHERE resource_type = 'Login' AND NOT deleted AND content->>'code' = $1 FOR UPDATE`,
    [hashSecret(redemption.code)],
  );
  const login = rows[0] ? await readLogin(session, rows[0].id) : undefined;
  if (!login || login.revoked) throw oauthError('invalid_grant', 'Invalid code');
  if (login.granted) {
    const error = oauthError(
      'invalid_grant',
      'Authorization code already used; the tokens issued with it have been revoked',
    );
    error.revokeLoginId = login.id;
    throw error;
  }
  if (Date.now() - Date.parse(login.authTime as string) > codeLifetimeMs)
    throw oauthError('invalid_grant', 'Code expired');
  const loginClient = clientOf(login);
  requireSameClient(login, caller, 'Code');
  requireClientCredentials(login, caller);
  // A public client names itself: without client_id the check above would not run at all.
  if (loginClient && !caller.clientId)
    throw oauthError('invalid_request', 'Missing client_id: the code was issued to a client application');
  const client = loginClient ? await readClient(session, loginClient) : undefined;
  const redirectProblem = tokenRedirectUriProblem(client, authorizedRedirectUri(login), redemption.redirectUri);
  if (redirectProblem) throw oauthError(redirectProblem.error, redirectProblem.description);
  if (login.codeChallenge) {
    if (!redemption.verifier) throw oauthError('invalid_request', 'Missing code_verifier');
    if (!checkVerifier(redemption.verifier, login.codeChallenge, login.codeChallengeMethod ?? '')) {
      throw oauthError('invalid_grant', 'Invalid code_verifier');
    }
  } else if (!loginClient) {
    // Public callers (the web app) must use PKCE; only confidential clients may skip it.
    throw oauthError('invalid_request', 'PKCE code_challenge is required');
  }
  if (await mfaPending(session, login)) throw oauthError('invalid_grant', 'Two-factor sign-in is not complete');
  // The code's hash is kept (see above): a granted Login's code is a used one.
  return grantTokens(env, session, login, client);
}

/** Marks the login granted and signs its tokens (a new refresh secret each time: rotation). */
export async function grantTokens(
  env: AuthEnvironment,
  session: RepositorySession,
  login: Login,
  /** The login's ClientApplication when the caller has already read it (the refresh grant). */
  knownClient?: ClientApplication,
): Promise<TokenResponse> {
  if (!login.membership) throw oauthError('invalid_grant', 'Login has no profile yet');
  const membership = await readReference<ProjectMembership>(session, login.membership);
  if (membership && awaitsAddressOwner(membership)) throw oauthError('invalid_grant', awaitingOwnerMessage);
  if (!membershipUsable(membership)) throw oauthError('invalid_grant', 'Membership not found');
  const client =
    knownClient ??
    (login.client ? await readClient(session, login.client.reference?.split('/')[1] as string) : undefined);
  const clientId = client?.id ?? defaultClientId;
  const lifetime = accessTokenLifetimeOf(client);
  const refreshSecret = newSecret();
  // Clients holding their own credentials ask again rather than refresh.
  const withRefresh = login.authMethod !== 'client';
  // SMART launch context (patient / encounter), recorded on the Login and carried by the token.
  const launch = await launchContextFor(session, login, membership.profile as Reference);
  const saved = await saveLogin(
    session,
    withAccessTokenExpiry(
      {
        ...launch.login,
        granted: true,
        ...(withRefresh ? { refreshSecret: hashSecret(refreshSecret) } : {}),
      },
      // Rounded up to the second, as the token's own `exp` may be.
      (Math.floor(Date.now() / 1000) + 1 + lifetime) * 1000,
    ),
  );
  const user = await readReference<User | ClientApplication>(session, login.user);
  const profile = membership.profile as Reference;
  const claims = {
    login_id: saved.id,
    sub: login.user?.reference?.split('/')[1],
    username: login.user?.reference?.split('/')[1],
    client_id: clientId,
    aud: clientId,
    scope: login.scope ?? plainSignInScope,
    profile: profile.reference,
    fhirUser: profile.reference,
    ...launch.context,
  };
  const response: TokenResponse = {
    token_type: 'Bearer',
    access_token: await env.keys.sign(claims, lifetime),
    expires_in: lifetime,
    scope: claims.scope,
    project: membership.project as Reference,
    profile,
    fhirUser: profile.reference,
    ...launch.context,
  };
  if ((login.scope ?? '').split(/\s+/).includes('openid')) {
    response.id_token = await env.keys.sign(
      {
        sub: claims.sub,
        aud: clientId,
        login_id: saved.id,
        fhirUser: profile.reference,
        ...(login.nonce ? { nonce: login.nonce } : {}),
        ...(user?.resourceType === 'User'
          ? { email: user.email, name: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() }
          : {}),
        auth_time: Math.floor(Date.parse(sessionStartOf(login)) / 1000),
      },
      lifetime,
    );
  }
  if (withRefresh) response.refresh_token = `${saved.id}.${refreshSecret}`;
  return response;
}

/**
 * The refresh grant: the presented secret must be the latest one; a replayed old one revokes the
 * login. The Login's row is held (`lockedLogin`), so of several requests with one refresh token the
 * first rotates it and the others present a spent one: they end the session, as any replay does.
 */
export async function refreshTokens(
  env: AuthEnvironment,
  session: RepositorySession,
  refreshToken: string,
  caller: TokenCaller = { authenticated: false },
) {
  const [loginId, secret] = refreshToken.split('.');
  const login = loginId && secret ? await lockedLogin(session, loginId) : undefined;
  if (!login || login.revoked || !login.granted) throw oauthError('invalid_grant', 'Invalid refresh token');
  requireSameClient(login, caller, 'Refresh token');
  const loginClient = clientOf(login);
  const client = loginClient ? await readClient(session, loginClient) : undefined;
  const clock = {
    authTime: sessionStartOf(login),
    issuedAt: login.meta?.lastUpdated,
    remembered: remembers(login),
    clientLifetime: client?.refreshTokenLifetime,
  };
  if (refreshTokenExpired(clock, Date.now())) throw oauthError('invalid_grant', 'Refresh token expired');
  // Logins of the code flow without PKCE: a confidential client's refresh token needs its credentials too.
  if (login.authMethod !== 'exchange') requireClientCredentials(login, caller);
  if (!sameHash(secret, login.refreshSecret)) {
    // Someone holds an older token of this login: end it for everyone (RFC 6819 §5.2.2.3). The
    // caller revokes it outside this transaction, which the error rolls back.
    const error = oauthError('invalid_grant', 'Refresh token already used; the session has been ended');
    error.revokeLoginId = login.id;
    throw error;
  }
  return grantTokens(env, session, login, client);
}

export async function revokeLogin(session: RepositorySession, loginId: string): Promise<void> {
  // Held like a grant's: a refresh running at the same time cannot write its Login back unrevoked.
  const login = await lockedLogin(session, loginId);
  if (login && !login.revoked) await saveLogin(session, { ...login, revoked: true, refreshSecret: undefined });
}

/** OAuth2 errors answer `{error, error_description}` (RFC 6749 §5.2), not an OperationOutcome. */
export class OAuthError extends Error {
  /** A login to end even though the request fails (a replayed refresh token). */
  revokeLoginId?: string;

  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export function oauthError(error: string, description: string, status = 400): OAuthError {
  return new OAuthError(error, description, status);
}

/** ClientApplication.accessTokenLifetime in seconds; the default one for a value that cannot be read. */
export function parseLifetime(value: string): number {
  return tokenLifetimeSeconds(value) ?? accessTokenSeconds;
}

/** How long an access token granted through `client` lasts, in seconds (the default without one). */
export function accessTokenLifetimeOf(client: ClientApplication | undefined): number {
  return client?.accessTokenLifetime ? parseLifetime(client.accessTokenLifetime) : accessTokenSeconds;
}
