import { HttpError } from 'react-admin';
import { describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../client/clientStorage';
import { FakeFetch, fakeJwt, jsonResponse } from '../client/fakeFetch';
import { FhirClient } from '../client/fhirClient';
import { LOGIN_STORAGE_KEYS } from '../client/loginStore';
import { createFhirAuthProvider, type FhirAuthProviderOptions, SignInStepRequired } from './fhirAuthProvider';

const server = 'http://ehr.test/';
const clientId = 'app-1';

function token(claims: Record<string, unknown> = {}): string {
  return fakeJwt({ exp: Math.floor(Date.now() / 1000) + 3600, client_id: clientId, ...claims });
}

const me = (extra: Record<string, unknown> = {}) => ({
  profile: {
    resourceType: 'Practitioner',
    id: 'dr1',
    name: [{ given: ['Alice'], family: 'Smith' }],
    photo: [{ contentType: 'image/png', url: 'http://ehr.test/storage/photo' }],
  },
  project: { resourceType: 'Project', id: 'pr1', name: 'Clinic' },
  membership: { resourceType: 'ProjectMembership', id: 'mem1', admin: true },
  accessPolicy: {
    resourceType: 'AccessPolicy',
    resource: [{ resourceType: 'Patient' }, { resourceType: 'Observation', readonly: true }],
  },
  ...extra,
});

function setup(options: FhirAuthProviderOptions = {}) {
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
  });
  const accessToken = token();
  fake.on('POST', `${server}oauth2/token`, () =>
    jsonResponse({ access_token: accessToken, refresh_token: 'r1', token_type: 'Bearer', expires_in: 3600 }),
  );
  let session = me();
  const setMe = (next: ReturnType<typeof me>) => (session = next);
  fake.on('GET', `${server}auth/me`, () => jsonResponse(session));
  fake.on('POST', `${server}oauth2/logout`, () => jsonResponse({}));
  return {
    fake,
    client,
    storage,
    onUnauthenticated,
    accessToken,
    setMe,
    auth: createFhirAuthProvider(client, options),
  };
}

async function rejected(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('login', () => {
  it('signs in with e-mail and password through the client: PKCE, code exchange, session', async () => {
    const { fake, client, auth, accessToken } = setup();
    fake.on('POST', `${server}auth/login`, () => jsonResponse({ login: 'l1', code: 'c1' }));
    await auth.login({ email: 'alice@example.com', password: 'pw', remember: true });
    const start = JSON.parse(fake.callsTo('POST', `${server}auth/login`)[0].body as string);
    expect(start).toMatchObject({
      email: 'alice@example.com',
      password: 'pw',
      remember: true,
      codeChallengeMethod: 'S256',
      clientId,
    });
    expect(start.codeChallenge).toHaveLength(43);
    expect(new URLSearchParams(fake.callsTo('POST', `${server}oauth2/token`)[0].body as string).get('code')).toBe('c1');
    expect(client.getAccessToken()).toBe(accessToken);
    expect(client.getProfile()?.id).toBe('dr1');
  });

  it('asks for the next step (profile, MFA) and continues with its answer', async () => {
    const { fake, client, auth } = setup();
    const memberships = [
      { resourceType: 'ProjectMembership', id: 'm1' },
      { resourceType: 'ProjectMembership', id: 'm2' },
    ];
    fake.on('POST', `${server}auth/login`, () => jsonResponse({ login: 'l1', memberships }));
    fake.on('POST', `${server}auth/profile`, () => jsonResponse({ login: 'l1', mfaRequired: true }));
    fake.on('POST', `${server}auth/mfa/verify`, () => jsonResponse({ login: 'l1', code: 'c2' }));

    const profileStep = (await rejected(auth.login({ email: 'a@b.c', password: 'pw' }))) as SignInStepRequired;
    expect(profileStep).toBeInstanceOf(SignInStepRequired);
    expect(profileStep.step).toBe('profile');
    expect(profileStep.memberships.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(profileStep.message).toBe('Choose the profile to sign in with');

    const mfaStep = (await rejected(auth.login({ login: 'l1', profile: 'm2' }))) as SignInStepRequired;
    expect(JSON.parse(fake.callsTo('POST', `${server}auth/profile`)[0].body as string)).toEqual({
      login: 'l1',
      profile: 'm2',
    });
    expect(mfaStep.step).toBe('mfa');
    expect(client.getActiveLogin()).toBeUndefined();

    await auth.login({ login: 'l1', mfaCode: '123456' });
    expect(JSON.parse(fake.callsTo('POST', `${server}auth/mfa/verify`)[0].body as string)).toEqual({
      login: 'l1',
      token: '123456',
    });
    expect(client.getActiveLogin()).toBeDefined();
  });

  it("a wrong password rejects with the server's message and signs nobody in", async () => {
    const { fake, client, auth, onUnauthenticated } = setup();
    fake.on('POST', `${server}auth/login`, () =>
      jsonResponse(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'invalid', details: { text: 'Email or password is invalid' } }],
        },
        400,
      ),
    );
    await expect(auth.login({ email: 'a@b.c', password: 'nope' })).rejects.toThrow('Email or password is invalid');
    expect(client.getActiveLogin()).toBeUndefined();
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('accepts a code obtained elsewhere', async () => {
    const { fake, client, auth } = setup();
    await auth.login({ code: 'c9' });
    expect(new URLSearchParams(fake.callsTo('POST', `${server}oauth2/token`)[0].body as string).get('code')).toBe('c9');
    expect(client.getActiveLogin()).toBeDefined();
  });
});

describe('session checks', () => {
  it('checkAuth sends a visitor without a login to /signin (or the configured path) without a toast', async () => {
    const { auth } = setup();
    expect(await rejected(auth.checkAuth({}))).toEqual({ redirectTo: '/signin', logoutUser: false, message: false });
    const other = setup({ signInPath: '/login' });
    expect(await rejected(other.auth.checkAuth({}))).toMatchObject({ redirectTo: '/login' });
  });

  it('checkAuth passes with a login', async () => {
    const { client, auth, accessToken } = setup();
    client.setAccessToken(accessToken);
    await expect(auth.checkAuth({})).resolves.toBeUndefined();
  });

  it('checkError ends the session on a 401 and keeps it on a 403 or another error', async () => {
    const { client, auth, accessToken } = setup();
    client.setAccessToken(accessToken);
    await expect(auth.checkError(new HttpError('Forbidden', 403))).resolves.toBeUndefined();
    await expect(auth.checkError(new Error('network'))).resolves.toBeUndefined();
    expect(client.getActiveLogin()).toBeDefined();
    const ended = await rejected(auth.checkError(new HttpError('Unauthorized', 401)));
    expect(ended).toEqual({
      redirectTo: '/signin',
      logoutUser: true,
      message: 'Your session has ended; please sign in again',
    });
    expect(client.getActiveLogin()).toBeUndefined();
  });

  it('logout tells the server, forgets the login and answers the sign-in path', async () => {
    const { fake, client, auth, accessToken } = setup();
    client.setAccessToken(accessToken);
    expect(await auth.logout({})).toBe('/signin');
    expect(fake.callsTo('POST', `${server}oauth2/logout`)[0].headers.authorization).toBe(`Bearer ${accessToken}`);
    expect(client.getActiveLogin()).toBeUndefined();
    expect(await auth.logout({})).toBe('/signin');
    expect(fake.callsTo('POST', `${server}oauth2/logout`)).toHaveLength(1);
  });
});

describe('identity and permissions', () => {
  it('getIdentity answers the profile display name and photo', async () => {
    const { client, auth, accessToken } = setup();
    client.setAccessToken(accessToken);
    expect(await auth.getIdentity!()).toEqual({
      id: 'Practitioner/dr1',
      fullName: 'Alice Smith',
      avatar: 'http://ehr.test/storage/photo',
    });
    const signedOut = setup();
    await expect(signedOut.auth.getIdentity!()).rejects.toThrow('Not signed in');
  });

  it('getPermissions answers the admin flags and the access policy', async () => {
    const { client, auth, accessToken } = setup();
    client.setAccessToken(accessToken);
    expect(await auth.getPermissions!({})).toEqual({
      superAdmin: false,
      projectAdmin: true,
      accessPolicy: me().accessPolicy,
    });
  });

  it('canAccess applies the access policy the way the server does', async () => {
    const { client, auth, accessToken } = setup();
    client.setAccessToken(accessToken);
    const can = (resource: string, action: string) => auth.canAccess!({ resource, action });
    expect(await can('Patient', 'list')).toBe(true);
    expect(await can('Patient', 'edit')).toBe(true);
    expect(await can('Observation', 'show')).toBe(true);
    expect(await can('Observation', 'list.column')).toBe(true);
    expect(await can('Observation', 'edit')).toBe(false);
    expect(await can('Observation', 'delete')).toBe(false);
    expect(await can('Encounter', 'list')).toBe(false);
    const signedOut = setup();
    expect(await signedOut.auth.canAccess!({ resource: 'Patient', action: 'list' })).toBe(false);
  });

  it('canAccess: no policy is everything in the project but never-writable types; super admins only not Login writes', async () => {
    const { client, auth, accessToken, setMe } = setup();
    client.setAccessToken(accessToken);
    setMe(me({ accessPolicy: undefined }));
    await client.refreshProfile();
    expect(await auth.canAccess!({ resource: 'Encounter', action: 'create' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'DomainConfiguration', action: 'edit' })).toBe(false);
    expect(await auth.canAccess!({ resource: 'Login', action: 'list' })).toBe(true);
    setMe(me({ project: { resourceType: 'Project', id: 'admin', superAdmin: true } }));
    await client.refreshProfile();
    expect(await auth.canAccess!({ resource: 'DomainConfiguration', action: 'edit' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'Encounter', action: 'delete' })).toBe(true);
    expect(await auth.canAccess!({ resource: 'Login', action: 'edit' })).toBe(false);
  });
});

describe('handleCallback', () => {
  const at = (search: string) => () => ({ search, origin: 'http://app.test', pathname: '/auth-callback' });

  it('exchanges the code of an external sign-in and sends the user on', async () => {
    const { fake, client, auth } = setup({ currentLocation: at('?login=l1&code=ext-code') });
    expect(await auth.handleCallback!()).toEqual({ redirectTo: '/' });
    const exchange = new URLSearchParams(fake.callsTo('POST', `${server}oauth2/token`)[0].body as string);
    expect(exchange.get('code')).toBe('ext-code');
    expect(exchange.get('redirect_uri')).toBeNull();
    expect(client.getActiveLogin()).toBeDefined();
  });

  it('checks the state of a redirect this client started and sends its redirect_uri', async () => {
    const { fake, client, storage } = setup();
    await client.buildAuthorizeRedirectUrl({ redirectUri: 'http://app.test/auth-callback' });
    const state = storage.getItem(LOGIN_STORAGE_KEYS.oauthState) as string;
    const auth = createFhirAuthProvider(client, {
      currentLocation: at(`?code=c3&state=${state}`),
      afterSignInPath: '/home',
    });
    expect(await auth.handleCallback!()).toEqual({ redirectTo: '/home' });
    const exchange = new URLSearchParams(fake.callsTo('POST', `${server}oauth2/token`)[0].body as string);
    expect(exchange.get('redirect_uri')).toBe('http://app.test/auth-callback');

    client.clearActiveLogin();
    const forged = createFhirAuthProvider(client, { currentLocation: at('?code=c4&state=forged') });
    await expect(forged.handleCallback!()).rejects.toThrow('does not match the request');
    expect(client.getActiveLogin()).toBeUndefined();
  });

  it("reports the identity provider's error, and a missing code", async () => {
    await expect(
      setup({ currentLocation: at('?error=No%20Hearth%20EMR%20account%20matches%20this%20identity') }).auth
        .handleCallback!(),
    ).rejects.toThrow('No Hearth EMR account matches this identity');
    await expect(setup({ currentLocation: at('') }).auth.handleCallback!()).rejects.toThrow(
      'The sign-in answer has no code; please sign in again',
    );
  });
});
