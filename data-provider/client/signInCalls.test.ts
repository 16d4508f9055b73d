import { describe, expect, it } from 'vitest';
import { MemoryStorage } from './clientStorage';
import { FakeFetch, jsonResponse } from './fakeFetch';
import { FhirClient } from './fhirClient';
import { LOGIN_STORAGE_KEYS } from './loginStore';
import { createCodeChallenge } from './pkce';

// The sign-in calls the web app's signed-out pages use (auth/method, auth/login/{login}, registration, passwords).
const server = 'http://ehr.test/';

function setup() {
  const fake = new FakeFetch();
  const storage = new MemoryStorage();
  const client = new FhirClient({ baseUrl: server, fetch: fake.fetch, storage, autoBatchTime: 0 });
  return { fake, client, storage };
}

const body = (call: { body: unknown }) => JSON.parse(call.body as string) as Record<string, unknown>;

describe('sign-in calls of the signed-out pages', () => {
  it('auth/method sends a fresh PKCE challenge whose verifier is kept for the way back', async () => {
    const { fake, client, storage } = setup();
    fake.on('POST', `${server}auth/method`, jsonResponse({ method: 'external', authorizeUrl: 'https://idp/a' }));
    const answer = await client.getAuthMethod({ email: 'a@b.example', redirectUri: 'http://app/signin' });
    expect(answer).toEqual({ method: 'external', authorizeUrl: 'https://idp/a' });
    const sent = body(fake.calls[0]);
    expect(sent).toMatchObject({ email: 'a@b.example', redirectUri: 'http://app/signin', codeChallengeMethod: 'S256' });
    const verifier = storage.getItem(LOGIN_STORAGE_KEYS.codeVerifier) as string;
    expect(sent.codeChallenge).toBe(await createCodeChallenge(verifier));
  });

  it("auth/method and auth/login pass a third-party app's own client id and challenge through", async () => {
    const { fake, client, storage } = setup();
    fake.on('POST', `${server}auth/method`, jsonResponse({ method: 'password' }));
    fake.on('POST', `${server}auth/login`, jsonResponse({ login: 'l1', scopes: ['patient/*.read'] }));
    await client.getAuthMethod({
      email: 'a@b.example',
      clientId: 'app',
      codeChallenge: 'C',
      codeChallengeMethod: 'S256',
    });
    const login = await client.startLogin({
      email: 'a@b.example',
      password: 'pw',
      clientId: 'app',
      codeChallenge: 'C',
      codeChallengeMethod: 'S256',
      scope: 'openid patient/*.read',
    });
    expect(login.scopes).toEqual(['patient/*.read']);
    expect(body(fake.calls[0])).toMatchObject({ clientId: 'app', codeChallenge: 'C' });
    expect(body(fake.calls[1])).toMatchObject({ clientId: 'app', codeChallenge: 'C', scope: 'openid patient/*.read' });
    // The app's own verifier is untouched: the third party exchanges the code itself.
    expect(storage.getItem(LOGIN_STORAGE_KEYS.codeVerifier)).toBeNull();
  });

  it('reads a sign-in in progress and the registration options without caching', async () => {
    const { fake, client } = setup();
    fake.on('GET', `${server}auth/login/l%2F1`, jsonResponse({ id: 'l/1', mfaRequired: true, memberships: [] }));
    fake.on('GET', `${server}auth/registration`, jsonResponse({ registration: 'open', googleClientId: null }));
    expect((await client.getLoginStatus('l/1')).mfaRequired).toBe(true);
    await client.getLoginStatus('l/1');
    expect(fake.callsTo('GET', /auth\/login/)).toHaveLength(2);
    expect(await client.getRegistrationOptions()).toEqual({ registration: 'open', googleClientId: null });
  });

  it('posts password reset requests and new passwords', async () => {
    const { fake, client } = setup();
    fake.on('POST', `${server}auth/resetpassword`, jsonResponse({ ok: true }));
    fake.on('POST', `${server}auth/setpassword`, jsonResponse({ ok: true }));
    await client.resetPassword('a@b.example');
    await client.setPassword('id1', 'sec', 'new password 1');
    expect(body(fake.calls[0])).toEqual({ email: 'a@b.example' });
    expect(body(fake.calls[1])).toEqual({ id: 'id1', secret: 'sec', password: 'new password 1' });
  });
});
