import { randomBytes } from 'node:crypto';
import type { DomainConfiguration, IdentityProvider } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import type { AuthEnvironment } from './authEnvironment';
import { s256Challenge } from './pkce';

/** Sign-in through an external OpenID Connect provider configured for an e-mail domain. */

export interface DomainProvider {
  domain: string;
  identityProvider: IdentityProvider;
}

export async function findDomainProvider(
  session: RepositorySession,
  email: string,
): Promise<DomainProvider | undefined> {
  const domain = email.split('@')[1]?.toLowerCase();
  if (!domain) return undefined;
  const result = await session.search(
    parseSearchRequest('DomainConfiguration', { domain, _count: '1' }, session.registry),
  );
  const config = result.resources[0] as DomainConfiguration | undefined;
  if (!config?.identityProvider) return undefined;
  return { domain, identityProvider: config.identityProvider };
}

/** What the server remembers between sending the user to the provider and its callback. */
export interface PendingExternalSignIn {
  domain?: string;
  /** Set for a ClientApplication's own identity provider. */
  clientId?: string;
  projectId?: string;
  /** Where the browser goes back to in the app (with `code` or `login`). */
  redirectUri?: string;
  /**
   * A third-party app's own redirect_uri (the `/oauth` page's authorization request), checked
   * against its registration: recorded on the Login, so the code is redeemed only with it.
   */
  clientRedirectUri?: string;
  /** The scope the app asked for (a third-party app signing in through the web app's /oauth page). */
  scope?: string;
  /** The app's PKCE challenge: the code it finally gets is bound to it. */
  codeChallenge?: string;
  codeChallengeMethod?: string;
  /** The server's own PKCE verifier towards the provider (never leaves the server). */
  providerVerifier?: string;
  identityProvider: IdentityProvider;
}

const pendingLifetimeMs = 10 * 60_000;

export function externalCallbackUrl(env: AuthEnvironment): string {
  return `${env.config.baseUrl}auth/external`;
}

export async function externalAuthorizeUrl(
  env: AuthEnvironment,
  provider: DomainProvider,
  options: Omit<PendingExternalSignIn, 'identityProvider' | 'providerVerifier' | 'domain'>,
): Promise<string> {
  const idp = provider.identityProvider;
  const state = randomBytes(24).toString('base64url');
  const pending: PendingExternalSignIn = { ...options, domain: provider.domain, identityProvider: idp };
  const url = new URL(idp.authorizeUrl as string);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', idp.clientId as string);
  url.searchParams.set('redirect_uri', externalCallbackUrl(env));
  url.searchParams.set('scope', 'openid profile email');
  url.searchParams.set('state', state);
  if (idp.usePkce) {
    pending.providerVerifier = randomBytes(48).toString('base64url');
    url.searchParams.set('code_challenge', s256Challenge(pending.providerVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  await env.repository.db.query(
    `INSERT INTO auth_pending (id, value, expires) VALUES ($1, $2::jsonb, now() + make_interval(secs => $3))`,
    [state, JSON.stringify(pending), pendingLifetimeMs / 1000],
  );
  return url.toString();
}

/** Takes (once) what was stored for `state`; undefined when unknown or expired. */
export async function takePendingSignIn(
  env: AuthEnvironment,
  state: string,
): Promise<PendingExternalSignIn | undefined> {
  const rows = await env.repository.db.query<{ value: PendingExternalSignIn; expired: boolean }>(
    `DELETE FROM auth_pending WHERE id = $1 RETURNING value, expires < now() AS expired`,
    [state],
  );
  await env.repository.db.query('DELETE FROM auth_pending WHERE expires < now()');
  const row = rows[0];
  if (!row || row.expired) return undefined;
  return typeof row.value === 'string' ? (JSON.parse(row.value) as PendingExternalSignIn) : row.value;
}

export interface ExternalIdentity {
  subject: string;
  email?: string;
  /** The provider's `email_verified` claim: undefined when it says nothing about it. */
  emailVerified?: boolean;
}

/** The provider's code exchange and user info: who signed in there. */
export async function fetchExternalIdentity(
  env: AuthEnvironment,
  pending: PendingExternalSignIn,
  code: string,
): Promise<ExternalIdentity> {
  const idp = pending.identityProvider;
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: externalCallbackUrl(env),
    client_id: idp.clientId as string,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (idp.tokenAuthMethod === 'client_secret_post') form.set('client_secret', idp.clientSecret as string);
  else {
    headers.authorization = `Basic ${Buffer.from(
      `${encodeURIComponent(idp.clientId as string)}:${encodeURIComponent(idp.clientSecret as string)}`,
    ).toString('base64')}`;
  }
  if (pending.providerVerifier) form.set('code_verifier', pending.providerVerifier);
  const token = await askProvider(idp.tokenUrl as string, { method: 'POST', headers, body: form });
  const tokens = token.json as { access_token?: unknown; error_description?: unknown; error?: unknown };
  if (!token.ok || typeof tokens.access_token !== 'string' || tokens.access_token === '') {
    const reason = [tokens.error_description, tokens.error].find((value) => typeof value === 'string');
    throw new Error(`The identity provider refused the code: ${reason ?? token.status}`);
  }
  const userInfo = await askProvider(idp.userInfoUrl as string, {
    headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json' },
  });
  const info = userInfo.json as { sub?: unknown; email?: unknown; email_verified?: unknown };
  if (!userInfo.ok || typeof info.sub !== 'string' || info.sub === '')
    throw new Error('The identity provider did not say who signed in');
  // Some providers send the claim as a string.
  const verified = info.email_verified;
  const emailVerified =
    verified === true || verified === 'true' ? true : verified === false || verified === 'false' ? false : undefined;
  return {
    subject: info.sub,
    email: typeof info.email === 'string' ? info.email.toLowerCase() : undefined,
    ...(emailVerified !== undefined ? { emailVerified } : {}),
  };
}

/** How long one request to the provider may take, and the largest answer read from it. */
const providerTimeoutMs = 10_000;
const providerMaxBytes = 256 * 1024;

/**
 * One request to the sign-in provider of a DomainConfiguration. Only super admins write those
 * (trusted, and an identity provider on the organisation's own network is a normal setup), so its
 * URLs are not held to the outbound address rule that project-stored URLs are
 * (server/net/outboundAddress.ts); a slow or endless answer still cannot hold the callback: the
 * request is time-limited and its JSON body read up to `providerMaxBytes` (`{}` beyond, or when it
 * is not JSON).
 */
async function askProvider(url: string, init: RequestInit): Promise<{ ok: boolean; status: number; json: object }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(providerTimeoutMs) });
    return { ok: response.ok, status: response.status, json: await limitedJson(response) };
  } catch {
    throw new Error('The identity provider could not be reached');
  }
}

async function limitedJson(response: Response): Promise<object> {
  const reader = response.body?.getReader();
  if (!reader) return {};
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > providerMaxBytes) {
      await reader.cancel();
      return {};
    }
    chunks.push(value);
  }
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}
