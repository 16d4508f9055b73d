import { afterEach, describe, expect, it, vi } from 'vitest';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { MemoryStorage } from './clientStorage';
import { FakeFetch, fakeJwt, jsonResponse, textResponse } from './fakeFetch';
import { FhirClient, type FhirClientOptions } from './fhirClient';
import { LOGIN_STORAGE_KEYS } from './loginStore';
import { createCodeChallenge } from './pkce';

const server = 'http://ehr.test/';
const tokenUrl = `${server}oauth2/token`;
const clientId = 'app-1';

/** A JWT for `clientId` expiring `seconds` from now. */
function token(seconds = 3600, claims: Record<string, unknown> = {}): string {
  return fakeJwt({ exp: Math.floor(Date.now() / 1000) + seconds, client_id: clientId, ...claims });
}

const me = (profileId = 'dr1', extra: Record<string, unknown> = {}) => ({
  profile: { resourceType: 'Practitioner', id: profileId, name: [{ family: 'Who' }] },
  project: { resourceType: 'Project', id: 'pr1', name: 'Clinic' },
  membership: { resourceType: 'ProjectMembership', id: 'mem1', admin: true },
  config: { resourceType: 'UserConfiguration', id: 'cfg', name: 'default' },
  accessPolicy: { resourceType: 'AccessPolicy', id: 'ap', resource: [{ resourceType: 'Patient' }] },
  ...extra,
});

function setup(options: Partial<FhirClientOptions> = {}) {
  const fake = new FakeFetch();
  const storage = new MemoryStorage();
  const onUnauthenticated = vi.fn();
  const client = new FhirClient({
    baseUrl: server,
    clientId,
    fetch: fake.fetch,
    storage,
    autoBatchTime: 0,
    onUnauthenticated,
    ...options,
  });
  return { fake, client, storage, onUnauthenticated };
}

function form(call: { body: unknown }): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(call.body as string));
}

function json(call: { body: unknown }): Record<string, unknown> {
  return JSON.parse(call.body as string) as Record<string, unknown>;
}

async function rejection(promise: Promise<unknown>): Promise<OperationOutcomeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperationOutcomeError);
  return error as OperationOutcomeError;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('sign-in steps', () => {
  it('startLogin posts credentials with clientId, default scope and the S256 challenge of the stored verifier', async () => {
    const { fake, client, storage } = setup();
    fake.on('POST', `${server}auth/login`, () => jsonResponse({ login: 'l1', code: 'c1' }));
    const answer = await client.startLogin({ email: 'a@b.c', password: 'pw', remember: true });
    expect(answer).toEqual({ login: 'l1', code: 'c1' });
    const body = json(fake.calls[0]);
    const verifier = storage.getItem(LOGIN_STORAGE_KEYS.codeVerifier) ?? '';
    expect(verifier).toHaveLength(128);
    expect(body).toEqual({
      email: 'a@b.c',
      password: 'pw',
      remember: true,
      clientId,
      scope: 'openid profile',
      codeChallenge: await createCodeChallenge(verifier),
      codeChallengeMethod: 'S256',
    });
    await client.startLogin({ email: 'a@b.c', password: 'pw', scope: 'openid' });
    expect(json(fake.calls[1]).scope).toBe('openid');
  });

  it('MFA, profile and scope steps post the login id to their endpoints', async () => {
    const { fake, client } = setup();
    fake.on('POST', /auth\//, () => jsonResponse({ login: 'l1', code: 'c' }));
    await client.verifyMfa('l1', '123456');
    await client.chooseProfile('l1', 'mem1');
    await client.chooseScope('l1', 'openid patient/*.read');
    expect(fake.calls.map((call) => [call.url.replace(server, ''), json(call)])).toEqual([
      ['auth/mfa/verify', { login: 'l1', token: '123456' }],
      ['auth/profile', { login: 'l1', profile: 'mem1' }],
      ['auth/scope', { login: 'l1', scope: 'openid patient/*.read' }],
    ]);
  });

  it('registration and Google steps post their fields, with PKCE where a code follows', async () => {
    const { fake, client } = setup();
    fake.on('POST', /auth\//, () => jsonResponse({ login: 'l1' }));
    await client.startNewUser({ firstName: 'A', lastName: 'B', email: 'a@b.c', password: 'pw', recaptchaToken: 'r' });
    await client.startNewProject({ login: 'l1', projectName: 'Clinic' });
    await client.startNewPatient({ login: 'l1', projectId: 'pr1' });
    await client.startGoogleLogin({ googleClientId: 'g', googleCredential: 'cred' });
    const [newUser, newProject, newPatient, google] = fake.calls;
    expect(newUser.url).toBe(`${server}auth/newuser`);
    expect(json(newUser)).toMatchObject({ firstName: 'A', clientId, codeChallengeMethod: 'S256' });
    expect(json(newUser).codeChallenge).toEqual(expect.any(String));
    expect(json(newProject)).toEqual({ login: 'l1', projectName: 'Clinic' });
    expect(newProject.url).toBe(`${server}auth/newproject`);
    expect(json(newPatient)).toEqual({ login: 'l1', projectId: 'pr1' });
    expect(newPatient.url).toBe(`${server}auth/newpatient`);
    expect(google.url).toBe(`${server}auth/google`);
    expect(json(google)).toMatchObject({ googleCredential: 'cred', clientId, scope: 'openid profile' });
  });
});

describe('code exchange', () => {
  it('processCode exchanges the code with the verifier, stores the login and loads the session', async () => {
    const { fake, client, storage } = setup();
    const accessToken = token();
    fake.on('POST', `${server}auth/login`, () => jsonResponse({ login: 'l1', code: 'code-1' }));
    fake.on('POST', tokenUrl, () =>
      jsonResponse({
        access_token: accessToken,
        refresh_token: 'r1',
        token_type: 'Bearer',
        expires_in: 3600,
        project: { reference: 'Project/pr1' },
        profile: { reference: 'Practitioner/dr1' },
      }),
    );
    fake.on('GET', `${server}auth/me`, () => jsonResponse(me()));
    const change = vi.fn();
    client.addEventListener('change', change);
    await client.startLogin({ email: 'a@b.c', password: 'pw' });
    const verifier = storage.getItem(LOGIN_STORAGE_KEYS.codeVerifier);
    const profile = await client.processCode('code-1', { redirectUri: 'http://app/signin' });
    expect(profile).toMatchObject({ resourceType: 'Practitioner', id: 'dr1' });
    const exchange = fake.callsTo('POST', tokenUrl)[0];
    expect(exchange.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form(exchange)).toEqual({
      grant_type: 'authorization_code',
      code: 'code-1',
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: 'http://app/signin',
    });
    expect(fake.callsTo('GET', `${server}auth/me`)[0].headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(client.getActiveLogin()).toEqual({
      accessToken,
      refreshToken: 'r1',
      project: { reference: 'Project/pr1' },
      profile: { reference: 'Practitioner/dr1' },
    });
    expect(storage.getItem(LOGIN_STORAGE_KEYS.codeVerifier)).toBeNull();
    expect(client.isAuthenticated()).toBe(true);
    expect(change).toHaveBeenCalled();
  });

  it('exposes the session details and admin flags from auth/me', async () => {
    const { fake, client } = setup();
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: token() }));
    fake.once('GET', `${server}auth/me`, () => jsonResponse(me()));
    fake.once('GET', `${server}auth/me`, () =>
      jsonResponse(
        me('dr1', {
          project: { resourceType: 'Project', id: 'admin', superAdmin: true },
          membership: { resourceType: 'ProjectMembership', admin: false },
        }),
      ),
    );
    await client.processCode('c');
    expect(client.getProfile()?.id).toBe('dr1');
    expect(client.getProject()?.name).toBe('Clinic');
    expect(client.getProjectMembership()?.id).toBe('mem1');
    expect(client.getUserConfiguration()?.name).toBe('default');
    expect(client.getAccessPolicy()?.resource?.[0].resourceType).toBe('Patient');
    expect(client.isProjectAdmin()).toBe(true);
    expect(client.isSuperAdmin()).toBe(false);
    // The token answer named no profile: the login record takes it from auth/me.
    expect(client.getActiveLogin()?.profile).toEqual({ reference: 'Practitioner/dr1' });
    await client.refreshProfile();
    expect(client.isSuperAdmin()).toBe(true);
    expect(client.isProjectAdmin()).toBe(false);
  });

  it("a refused token request clears the active login with the server's error_description", async () => {
    const { fake, client } = setup();
    client.setAccessToken(token(), 'r0');
    fake.on('POST', tokenUrl, () => jsonResponse({ error: 'invalid_grant', error_description: 'Code expired' }, 400));
    const error = await rejection(client.processCode('old'));
    expect(error.message).toBe('Code expired');
    expect(error.status).toBe(400);
    expect(client.getActiveLogin()).toBeUndefined();
    expect(fake.callsTo('GET', /auth\/me/)).toHaveLength(0);
  });

  it("a token request failing without a description says 'Failed to fetch tokens'", async () => {
    const { fake, client } = setup();
    client.setAccessToken(token());
    fake.once('POST', tokenUrl, () => textResponse('Bad gateway', 400));
    fake.once('POST', tokenUrl, () => jsonResponse({ token_type: 'Bearer' }));
    expect((await rejection(client.processCode('c'))).message).toBe('Failed to fetch tokens');
    expect(client.getAccessToken()).toBeUndefined();
    expect((await rejection(client.processCode('c'))).message).toBe('Failed to fetch tokens');
  });

  it('an expired access token, or one of another client, clears the login with an error', async () => {
    const { fake, client } = setup();
    fake.once('POST', tokenUrl, () => jsonResponse({ access_token: token(-10) }));
    fake.once('POST', tokenUrl, () => jsonResponse({ access_token: token(3600, { client_id: 'someone-else' }) }));
    fake.once('POST', tokenUrl, () => jsonResponse({ access_token: fakeJwt({ aud: 'someone-else' }) }));
    client.setAccessToken(token());
    const expired = await rejection(client.processCode('c'));
    expect(expired.message).toBe('Token expired');
    expect(expired.status).toBe(401);
    expect(client.getActiveLogin()).toBeUndefined();
    expect((await rejection(client.processCode('c'))).message).toBe('token not issued for this audience');
    expect((await rejection(client.processCode('c'))).message).toBe('token not issued for this audience');
    expect(client.getLogins()).toHaveLength(1); // only the login set at the start; none of the refused ones
  });

  it('refuses a code whose state does not match the one sent', async () => {
    const { fake, client, storage } = setup();
    storage.setItem(LOGIN_STORAGE_KEYS.oauthState, 'expected');
    const error = await rejection(client.processCode('c', { state: 'forged' }));
    expect(error.message).toContain('does not match');
    expect(fake.calls).toHaveLength(0);
    expect(storage.getItem(LOGIN_STORAGE_KEYS.oauthState)).toBeNull();
  });

  it('token exchange needs a client id; other grants post their forms', async () => {
    const withoutClient = setup({ clientId: undefined });
    expect((await rejection(withoutClient.client.exchangeExternalAccessToken('ext'))).message).toBe(
      'Token exchange needs a client id',
    );
    expect(withoutClient.fake.calls).toHaveLength(0);

    const { fake, client } = setup();
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: token() }));
    fake.on('GET', `${server}auth/me`, () => jsonResponse(me()));
    await client.exchangeExternalAccessToken('ext-token');
    await client.startClientLogin(clientId, 'secret');
    await client.startJwtBearerLogin(clientId, 'assertion-jwt');
    await client.startJwtAssertionLogin('client-jwt');
    const forms = fake.callsTo('POST', tokenUrl).map(form);
    expect(forms[0]).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      subject_token: 'ext-token',
      client_id: clientId,
    });
    expect(forms[1]).toEqual({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'secret' });
    expect(forms[2]).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      client_id: clientId,
      assertion: 'assertion-jwt',
      scope: 'openid profile',
    });
    expect(forms[3]).toMatchObject({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: 'client-jwt',
    });
  });

  it('the external-auth request needs a code challenge and its method', () => {
    const { client } = setup();
    expect(() => client.getExternalAuthRedirectUri('https://idp/authorize', 'c', 'http://app/cb', {})).toThrow(
      'code challenge',
    );
    const url = new URL(
      client.getExternalAuthRedirectUri('https://idp/authorize', 'c', 'http://app/cb', {
        codeChallenge: 'xyz',
        codeChallengeMethod: 'S256',
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'c',
      redirect_uri: 'http://app/cb',
      code_challenge: 'xyz',
      code_challenge_method: 'S256',
    });
  });
});

describe('sign-in by redirect', () => {
  function stubLocation(search: string) {
    const assign = vi.fn();
    vi.stubGlobal('location', { origin: 'http://app.test', pathname: '/signin', search, assign });
    return assign;
  }

  it('sends the browser to the authorize URL with state and PKCE', async () => {
    const { client, storage } = setup();
    const assign = stubLocation('');
    expect(await client.signInWithRedirect()).toBeUndefined();
    const url = new URL(assign.mock.calls[0][0] as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${server}oauth2/authorize`);
    const verifier = storage.getItem(LOGIN_STORAGE_KEYS.codeVerifier) ?? '';
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      state: storage.getItem(LOGIN_STORAGE_KEYS.oauthState),
      client_id: clientId,
      redirect_uri: 'http://app.test/signin',
      code_challenge: await createCodeChallenge(verifier),
      code_challenge_method: 'S256',
      scope: 'openid profile',
    });
  });

  it('exchanges the returned code when the state matches, and refuses it otherwise', async () => {
    const { fake, client, storage } = setup();
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: token() }));
    fake.on('GET', `${server}auth/me`, () => jsonResponse(me()));
    storage.setItem(LOGIN_STORAGE_KEYS.oauthState, 's1');
    stubLocation('?code=abc&state=s1');
    expect(await client.signInWithRedirect()).toMatchObject({ id: 'dr1' });
    expect(form(fake.calls[0])).toMatchObject({ code: 'abc', redirect_uri: 'http://app.test/signin' });

    stubLocation('?code=abc');
    storage.setItem(LOGIN_STORAGE_KEYS.oauthState, 's2');
    await rejection(client.signInWithRedirect());
    expect(fake.callsTo('POST', tokenUrl)).toHaveLength(1);
  });

  it('needs a client id', async () => {
    const { client } = setup({ clientId: undefined });
    stubLocation('');
    expect((await rejection(client.signInWithRedirect())).message).toContain('client id');
  });
});

describe('401 handling', () => {
  it('refreshes exactly once on a 401 and retries with the new token', async () => {
    const { fake, client, onUnauthenticated } = setup();
    const oldToken = token();
    const newToken = token(7200);
    client.setAccessToken(oldToken, 'refresh-1');
    fake.once('GET', /Patient\/p1/, () => jsonResponse({}, 401));
    fake.on('GET', /Patient\/p1/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: newToken, refresh_token: 'refresh-2' }));
    expect((await client.readResource('Patient', 'p1')).id).toBe('p1');
    const [first, second] = fake.callsTo('GET', /Patient\/p1/);
    expect(first.headers.authorization).toBe(`Bearer ${oldToken}`);
    expect(second.headers.authorization).toBe(`Bearer ${newToken}`);
    expect(fake.callsTo('POST', tokenUrl).map(form)).toEqual([
      { grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: clientId },
    ]);
    expect(client.getActiveLogin()?.refreshToken).toBe('refresh-2');
    expect(client.getLogins()).toHaveLength(1);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('when the refresh fails: session cleared, onUnauthenticated called, call rejected', async () => {
    const { fake, client, onUnauthenticated } = setup();
    client.setAccessToken(token(), 'refresh-1');
    fake.on('GET', /Patient\/p1/, () => jsonResponse({}, 401));
    fake.on('POST', tokenUrl, () => jsonResponse({ error: 'invalid_grant' }, 400));
    const error = await rejection(client.readResource('Patient', 'p1'));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Unauthorized');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
    expect(fake.callsTo('GET', /Patient/)).toHaveLength(1);
  });

  it('a second 401 after a successful refresh ends the session without another refresh', async () => {
    const { fake, client, onUnauthenticated } = setup();
    client.setAccessToken(token(), 'refresh-1');
    fake.on('GET', /Patient\/p1/, () => jsonResponse({}, 401));
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: token(), refresh_token: 'refresh-2' }));
    await rejection(client.readResource('Patient', 'p1'));
    expect(fake.callsTo('POST', tokenUrl)).toHaveLength(1);
    expect(fake.callsTo('GET', /Patient/)).toHaveLength(2);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(client.getActiveLogin()).toBeUndefined();
  });

  it('without a refresh token a 401 ends the session at once', async () => {
    const { fake, client, onUnauthenticated } = setup();
    client.setAccessToken(token());
    fake.on('GET', /Patient\/p1/, () => jsonResponse({}, 401));
    await rejection(client.readResource('Patient', 'p1'));
    expect(fake.callsTo('POST', tokenUrl)).toHaveLength(0);
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it("without a session, a 401 rejects with the server's outcome; only outside sign-in steps is it unauthenticated", async () => {
    const { fake, client, onUnauthenticated } = setup();
    const wrongPassword = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'login', details: { text: 'Email or password is invalid' } }],
    };
    fake.on('POST', `${server}auth/login`, () => jsonResponse(wrongPassword, 401));
    fake.on('GET', /Patient\/p1/, () =>
      jsonResponse(
        { ...wrongPassword, issue: [{ ...wrongPassword.issue[0], details: { text: 'Sign in first' } }] },
        401,
      ),
    );
    const error = await rejection(client.startLogin({ email: 'a@b.c', password: 'wrong' }));
    expect(error.message).toBe('Email or password is invalid');
    expect(error.status).toBe(401);
    expect(onUnauthenticated).not.toHaveBeenCalled();
    expect((await rejection(client.readResource('Patient', 'p1'))).message).toBe('Sign in first');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(fake.callsTo('POST', tokenUrl)).toHaveLength(0);
  });

  it('concurrent 401s share one refresh', async () => {
    const { fake, client } = setup();
    client.setAccessToken(token(), 'refresh-1');
    const fresh = token(7200);
    fake.on('GET', /Patient\/p\d/, (call) =>
      call.headers.authorization === `Bearer ${fresh}`
        ? jsonResponse({ resourceType: 'Patient', id: call.url.split('/').pop() })
        : jsonResponse({}, 401),
    );
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: fresh, refresh_token: 'refresh-2' }));
    const results = await Promise.all(['p1', 'p2', 'p3'].map((id) => client.readResource('Patient', id)));
    expect(results.map((patient) => patient.id)).toEqual(['p1', 'p2', 'p3']);
    expect(fake.callsTo('POST', tokenUrl)).toHaveLength(1);
  });
});

describe('refresh grace period', () => {
  it('refreshes before a request when the token expires within 300000 ms, not before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2024-01-01T00:00:00Z'));
    const { fake, client } = setup();
    client.setAccessToken(token(301), 'refresh-1');
    fake.on('GET', /Patient\/p1/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: token(3600), refresh_token: 'refresh-2' }));
    expect(client.isAuthenticated()).toBe(true);
    await client.readResource('Patient', 'p1');
    expect(fake.callsTo('POST', tokenUrl)).toHaveLength(0);
    vi.setSystemTime(Date.now() + 1001);
    expect(client.isAuthenticated()).toBe(false);
    await client.readResource('Patient', 'p1');
    const calls = fake.calls.map((call) => `${call.method} ${call.url.replace(server, '')}`);
    expect(calls).toEqual(['GET fhir/R4/Patient/p1', 'POST oauth2/token', 'GET fhir/R4/Patient/p1']);
    expect(fake.calls[2].headers.authorization).toBe(`Bearer ${client.getAccessToken()}`);
    expect(client.isAuthenticated()).toBe(true);
  });

  it('a failed refresh before a request ends the session and rejects the request', async () => {
    const { fake, client, onUnauthenticated } = setup();
    client.setAccessToken(token(10), 'refresh-1');
    fake.on('POST', tokenUrl, () => jsonResponse({ error: 'invalid_grant', error_description: 'Revoked' }, 400));
    const error = await rejection(client.readResource('Patient', 'p1'));
    expect(error.status).toBe(401);
    expect((error.cause as Error).message).toBe('Revoked');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
    expect(fake.callsTo('GET', /Patient/)).toHaveLength(0);
  });
});

describe('logins', () => {
  async function signIn(client: FhirClient, fake: FakeFetch, profileId: string): Promise<string> {
    const accessToken = token(3600, { sub: profileId });
    fake.once('POST', tokenUrl, () =>
      jsonResponse({
        access_token: accessToken,
        refresh_token: `r-${profileId}`,
        profile: { reference: `Practitioner/${profileId}` },
        project: { reference: 'Project/pr1' },
      }),
    );
    fake.once('GET', `${server}auth/me`, () => jsonResponse(me(profileId)));
    await client.processCode(`code-${profileId}`);
    return accessToken;
  }

  it('holds several logins and switches between them', async () => {
    const { fake, client, storage } = setup();
    const first = await signIn(client, fake, 'dr1');
    const second = await signIn(client, fake, 'dr2');
    expect(client.getLogins().map((login) => login.profile?.reference)).toEqual([
      'Practitioner/dr1',
      'Practitioner/dr2',
    ]);
    expect(client.getAccessToken()).toBe(second);
    fake.once('GET', `${server}auth/me`, () => jsonResponse(me('dr1')));
    const profile = await client.setActiveLogin(client.getLogins()[0]);
    expect(profile?.id).toBe('dr1');
    expect(client.getAccessToken()).toBe(first);
    expect(fake.calls[fake.calls.length - 1].headers.authorization).toBe(`Bearer ${first}`);
    // A new client on the same storage resumes the active login.
    const resumed = new FhirClient({ baseUrl: server, clientId, storage, fetch: fake.fetch });
    expect(resumed.getAccessToken()).toBe(first);
    expect(resumed.getLogins()).toHaveLength(2);
  });

  it('setActiveLogin refuses an expired token without refresh token, and renews one with', async () => {
    const { fake, client } = setup();
    const expired = { accessToken: token(-5), profile: { reference: 'Practitioner/x' } };
    client.setAccessToken(token());
    expect((await rejection(client.setActiveLogin(expired))).message).toBe('Token expired');
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getLogins().map((login) => login.profile?.reference)).not.toContain('Practitioner/x');
    expect((await rejection(client.setActiveLogin({ accessToken: token(60, { client_id: 'other' }) }))).message).toBe(
      'token not issued for this audience',
    );
    const renewed = token(3600);
    fake.on('POST', tokenUrl, () => jsonResponse({ access_token: renewed }));
    fake.on('GET', `${server}auth/me`, () => jsonResponse(me('x')));
    await client.setActiveLogin({ ...expired, refreshToken: 'r-x' });
    expect(client.getAccessToken()).toBe(renewed);
    expect(client.getActiveLogin()?.refreshToken).toBe('r-x');
    expect(client.getLogins().map((login) => login.accessToken)).toContain(renewed);
    expect(client.getLogins().map((login) => login.accessToken)).not.toContain(expired.accessToken);
  });

  it('setAccessToken refuses a token issued to another client', () => {
    const { client } = setup();
    expect(() => client.setAccessToken(token(60, { client_id: 'other' }))).toThrow(
      'token not issued for this audience',
    );
    expect(() => client.setAccessToken(token(-1))).toThrow('Token expired');
  });

  it('drops a stored login of another client when it starts', () => {
    const storage = new MemoryStorage();
    storage.setItem(
      LOGIN_STORAGE_KEYS.activeLogin,
      JSON.stringify({ accessToken: token(60, { client_id: 'old-app' }) }),
    );
    const client = new FhirClient({ baseUrl: server, clientId, storage });
    expect(client.getActiveLogin()).toBeUndefined();
    expect(storage.getItem(LOGIN_STORAGE_KEYS.activeLogin)).toBeNull();
  });

  it('getProfileAsync loads the session of a resumed login once', async () => {
    const { fake, client } = setup();
    client.setAccessToken(token());
    fake.on('GET', `${server}auth/me`, () => jsonResponse(me()));
    const [a, b] = await Promise.all([client.getProfileAsync(), client.getProfileAsync()]);
    expect(a?.id).toBe('dr1');
    expect(b?.id).toBe('dr1');
    await client.getProfileAsync();
    expect(fake.callsTo('GET', /auth\/me/)).toHaveLength(1);
  });

  it('signOut tells the server, forgets the active login and its cache, and is not an unauthenticated event', async () => {
    const { fake, client, onUnauthenticated } = setup({ cacheTime: 60_000 });
    const accessToken = await signIn(client, fake, 'dr1');
    await signIn(client, fake, 'dr2');
    fake.once('GET', `${server}auth/me`, () => jsonResponse(me('dr1')));
    await client.setActiveLogin(client.getLogins()[0]);
    fake.on('GET', /Patient\/p1/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    await client.readResource('Patient', 'p1');
    fake.on('POST', `${server}oauth2/logout`, () => jsonResponse({}));
    await client.signOut();
    expect(fake.callsTo('POST', /logout/)[0].headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(client.getActiveLogin()).toBeUndefined();
    expect(client.getProfile()).toBeUndefined();
    expect(client.getLogins().map((login) => login.profile?.reference)).toEqual(['Practitioner/dr2']);
    expect(client.getCachedResource('Patient', 'p1')).toBeUndefined();
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('signOut clears the session even when the server cannot be reached', async () => {
    const { client } = setup({ fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    client.setAccessToken(token());
    await client.signOut();
    expect(client.getAccessToken()).toBeUndefined();
  });
});

describe('browser defaults', () => {
  it('uses localStorage, the page origin and a 60 s cache in the browser', async () => {
    const items = new Map<string, string>();
    const localStorage = {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
    vi.stubGlobal('window', { document: {}, localStorage, location: { origin: 'http://browser.test' } });
    const fake = new FakeFetch().on('GET', /Patient\/p1/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
    const client = new FhirClient({ fetch: fake.fetch, autoBatchTime: 0 });
    expect(client.getBaseUrl()).toBe('http://browser.test/');
    client.setAccessToken('opaque-token');
    expect(items.get(LOGIN_STORAGE_KEYS.activeLogin)).toContain('opaque-token');
    await client.readResource('Patient', 'p1');
    await client.readResource('Patient', 'p1');
    expect(fake.calls).toHaveLength(1);
  });
});
