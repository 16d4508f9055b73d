import { unauthorized } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { accessTokenProblem, isTokenExpired } from './accessTokenClaims';
import type {
  ContinueSignInRequest,
  LaunchAvailability,
  LoginResponse,
  LoginState,
  SessionDetails,
  TokenResponse,
} from './authTypes';
import { DEFAULT_ACCEPT, FORM_URLENCODED } from './clientDefaults';
import { type FetchLike, fetchWithRetry, type RetryPolicy } from './fetchWithRetry';
import { type LoginStore, sameAccount } from './loginStore';
import { loginFromTokens, refreshGrantForm } from './refreshGrant';
import { withAccountRenewalLock } from './accountRenewalLock';
import { isJsonContentType, readResponseBody } from './responseBody';
import type { ServerUrls } from './serverUrls';

/** What a stored login's calls need of the client that keeps it. */
export interface StoredLoginSessionsOptions {
  urls: ServerUrls;
  clientId: string | undefined;
  logins: LoginStore;
  fetch: FetchLike;
  retryPolicy: RetryPolicy;
}

/** A stored login that answered `GET auth/me`: the login as it is now stored (renewed if it had to be) and its session. */
export interface StoredLoginSession {
  login: LoginState;
  details: SessionDetails;
}

/**
 * Calls made as a signed-in account of this device that is NOT the active one (the `/oauth`
 * page's account chooser), with that account's own bearer token. They leave the active login, the
 * cache and the client's events alone, and a 401 here never ends the active session: the account
 * in use in the app's tabs stays the one in use. A refused answer is thrown as it came (401 when
 * the account's session has ended), for the caller to say which account it was about.
 */
export class StoredLoginSessions {
  /** Renewals under way, by refresh token: a refresh token is good for one renewal (reuse ends the login). */
  private readonly renewals = new Map<string, Promise<LoginState>>();

  constructor(private readonly options: StoredLoginSessionsOptions) {}

  /**
   * The session of a stored login (`GET auth/me`), renewing an expired access token first with the
   * login's refresh token — as switching to it in the account menu would — and keeping the renewed
   * tokens in the stored list (the old refresh token is spent). Rejects with a 401 when the login
   * cannot be used any more (no refresh token, refresh refused, token of another client).
   */
  async session(login: LoginState, signal?: AbortSignal): Promise<StoredLoginSession> {
    const usable = await this.usable(login);
    const details = (await this.send(usable, 'GET', this.options.urls.url('auth/me').toString(), undefined, signal)) as
      SessionDetails | undefined;
    if (!details?.profile) throw new OperationOutcomeError(unauthorized(), 401);
    return { login: usable, details };
  }

  /** `POST auth/continue` as this stored login: a third-party app's sign-in taken on from its session. */
  async continueSignIn(login: LoginState, request: ContinueSignInRequest): Promise<LoginResponse> {
    const usable = await this.usable(login);
    return (await this.send(
      usable,
      'POST',
      this.options.urls.url('auth/continue').toString(),
      request,
    )) as LoginResponse;
  }

  /** `GET auth/continue/launch/{launch}` as this stored login: could its session continue into that EHR launch? */
  async launchAvailability(login: LoginState, launch: string, signal?: AbortSignal): Promise<LaunchAvailability> {
    const usable = await this.usable(login);
    const url = this.options.urls.url(`auth/continue/launch/${encodeURIComponent(launch)}`).toString();
    return (await this.send(usable, 'GET', url, undefined, signal)) as LaunchAvailability;
  }

  /**
   * The login's tokens as stored now — another call (or tab) may have renewed them since the caller
   * read the list, and sending a spent refresh token would make the server end the login — renewed
   * when the access token has expired.
   */
  private async usable(stale: LoginState): Promise<LoginState> {
    const login = this.stored(stale);
    const now = Date.now();
    const problem = accessTokenProblem(login.accessToken, this.options.clientId, now);
    if (!problem) return login;
    const refreshToken = login.refreshToken;
    if (!refreshToken || !isTokenExpired(login.accessToken, now)) throw new OperationOutcomeError(problem, 401);
    let renewal = this.renewals.get(refreshToken);
    if (!renewal) {
      // Not abortable: once the server has spent the old refresh token, only the answer keeps the login.
      renewal = withAccountRenewalLock(login, () => {
        // The tab that held the lock before may have renewed this account already.
        const latest = this.stored(login);
        if (latest.accessToken !== login.accessToken && !isTokenExpired(latest.accessToken, Date.now()))
          return Promise.resolve(latest);
        if (!latest.refreshToken) throw new OperationOutcomeError(unauthorized(), 401);
        return this.renew(latest, latest.refreshToken);
      }).finally(() => this.renewals.delete(refreshToken));
      this.renewals.set(refreshToken, renewal);
    }
    return renewal;
  }

  /** The account's login as stored now (another call or tab may have renewed it since it was read). */
  private stored(login: LoginState): LoginState {
    return this.options.logins.getLogins().find((stored) => sameAccount(stored, login)) ?? login;
  }

  private async renew(login: LoginState, refreshToken: string): Promise<LoginState> {
    const form = refreshGrantForm(refreshToken, this.options.clientId);
    const response = await fetchWithRetry(
      this.options.fetch,
      this.options.urls.tokenUrl,
      {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': FORM_URLENCODED },
        body: form.toString(),
      },
      this.options.retryPolicy,
    );
    const tokens = isJsonContentType(response.headers.get('content-type'))
      ? ((await response.json().catch(() => undefined)) as Partial<TokenResponse> | undefined)
      : undefined;
    // A refused refresh (expired, revoked, already used) means this account must sign in again.
    if (!response.ok || typeof tokens?.access_token !== 'string') throw new OperationOutcomeError(unauthorized(), 401);
    const problem = accessTokenProblem(tokens.access_token, this.options.clientId, Date.now());
    if (problem) throw new OperationOutcomeError(problem, 401);
    const renewed = loginFromTokens(tokens as TokenResponse, login);
    this.options.logins.replaceLogin(login, renewed);
    return renewed;
  }

  private async send(
    login: LoginState,
    method: 'GET' | 'POST',
    url: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    const response = await fetchWithRetry(
      this.options.fetch,
      url,
      {
        method,
        headers: {
          Accept: DEFAULT_ACCEPT,
          Authorization: `Bearer ${login.accessToken}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      },
      this.options.retryPolicy,
    );
    return readResponseBody(response);
  }
}
