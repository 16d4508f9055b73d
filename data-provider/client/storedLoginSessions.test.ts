import { describe, expect, it, vi } from 'vitest';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import type { LoginState } from './authTypes';
import { MemoryStorage } from './clientStorage';
import { FakeFetch, fakeJwt, jsonResponse, type RecordedCall } from './fakeFetch';
import { FhirClient } from './fhirClient';
import { LOGIN_STORAGE_KEYS, LoginStore } from './loginStore';

const server = 'http://ehr.test/';
const clientId = 'app-1';

function token(seconds: number, sub: string): string {
  return fakeJwt({ exp: Math.floor(Date.now() / 1000) + seconds, client_id: clientId, sub });
}

function account(id: string, seconds = 3600, refreshToken?: string): LoginState {
  return {
    accessToken: token(seconds, id),
    ...(refreshToken ? { refreshToken } : {}),
    profile: { reference: `Practitioner/${id}` },
    project: { reference: 'Project/p1' },
  };
}

const me = (id: string) => ({
  profile: { resourceType: 'Practitioner', id },
  project: { resourceType: 'Project', id: 'p1', name: 'Clinic' },
  membership: { resourceType: 'ProjectMembership', id: `m-${id}` },
});

const bearer = (call: RecordedCall) => call.headers.authorization;

/** A device where `alice` is active and `ben` (and whoever else) is signed in too. */
function device(others: LoginState[]) {
  const alice = account('alice');
  const storage = new MemoryStorage();
  const store = new LoginStore(storage);
  for (const login of others) store.setActiveLogin(login);
  store.setActiveLogin(alice);
  const fake = new FakeFetch();
  const onUnauthenticated = vi.fn();
  const client = new FhirClient({
    baseUrl: server,
    clientId,
    fetch: fake.fetch,
    storage,
    autoBatchTime: 0,
    onUnauthenticated,
  });
  const change = vi.fn();
  client.addEventListener('change', change);
  return { alice, storage, store, fake, client, onUnauthenticated, change };
}

describe("a stored login's own calls (the /oauth account chooser)", () => {
  it("reads another account's session with its own token and leaves the active login alone", async () => {
    const ben = account('ben');
    const { alice, fake, client, change } = device([ben]);
    fake.on('GET', `${server}auth/me`, jsonResponse(me('ben')));
    const { login, details } = await client.getStoredLoginSession(ben);
    expect(details.profile.id).toBe('ben');
    expect(login).toEqual(ben);
    expect(bearer(fake.calls[0]!)).toBe(`Bearer ${ben.accessToken}`);
    expect(client.getActiveLogin()).toEqual(alice);
    expect(client.getProfile()).toBeUndefined();
    expect(change).not.toHaveBeenCalled();
  });

  it('renews an expired access token once, keeps the renewed login in the list and inactive', async () => {
    const ben = account('ben', -60, 'ben.r1');
    const { alice, fake, client, store } = device([ben]);
    const renewed = token(3600, 'ben');
    fake.on('POST', `${server}oauth2/token`, jsonResponse({ access_token: renewed, refresh_token: 'ben.r2' }));
    fake.on('GET', `${server}auth/me`, jsonResponse(me('ben')));
    fake.on('POST', `${server}auth/continue`, jsonResponse({ login: 'l2', code: 'c' }));
    // Two checks at once (React runs effects twice in development) share one renewal: a refresh
    // token used twice would make the server end Ben's login.
    const [first, second] = await Promise.all([client.getStoredLoginSession(ben), client.getStoredLoginSession(ben)]);
    expect(first.login.accessToken).toBe(renewed);
    expect(second.login.accessToken).toBe(renewed);
    const renewals = fake.callsTo('POST', /oauth2\/token/);
    expect(renewals).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(renewals[0]!.body as string))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'ben.r1',
      client_id: clientId,
    });
    expect(store.getLogins().map((login) => login.refreshToken ?? 'none')).toEqual(['ben.r2', 'none']);
    expect(store.getLogins()[0]?.profile).toEqual(ben.profile);
    expect(store.getActiveLogin()).toEqual(alice);
    // Asked again with the list read earlier (the spent token), the stored renewed login is used.
    await client.continueSignInAs(ben, { clientId: 'app-7', redirectUri: 'https://app.example/cb' });
    expect(fake.callsTo('POST', /oauth2\/token/)).toHaveLength(1);
    expect(bearer(fake.callsTo('POST', /auth\/continue/)[0]!)).toBe(`Bearer ${renewed}`);
  });

  it('answers 401 for a login that cannot be used, without ending the active session', async () => {
    const spent = account('ben', -60, 'ben.spent');
    const noRefresh = account('cara', -60);
    const revoked = account('dan');
    const { alice, fake, client, onUnauthenticated } = device([spent, noRefresh, revoked]);
    fake.on('POST', `${server}oauth2/token`, jsonResponse({ error: 'invalid_grant' }, 400));
    fake.on('GET', `${server}auth/me`, jsonResponse({ resourceType: 'OperationOutcome', issue: [] }, 401));
    fake.on('POST', `${server}auth/continue`, jsonResponse({ resourceType: 'OperationOutcome', issue: [] }, 401));
    for (const attempt of [
      client.getStoredLoginSession(spent),
      client.getStoredLoginSession(noRefresh),
      client.getStoredLoginSession(revoked),
      client.continueSignInAs(revoked, { clientId: 'app-7', redirectUri: 'https://app.example/cb' }),
    ]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OperationOutcomeError);
      expect((error as OperationOutcomeError).status).toBe(401);
    }
    expect(fake.callsTo('POST', /oauth2\/token/)).toHaveLength(1);
    expect(client.getActiveLogin()).toEqual(alice);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it("passes the server's refusal of a continuation on as it came", async () => {
    const ben = account('ben');
    const { fake, client } = device([ben]);
    const text =
      'A session limited by SMART scopes cannot continue into another application: sign in on this page instead';
    fake.on(
      'POST',
      `${server}auth/continue`,
      jsonResponse(
        { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'forbidden', details: { text } }] },
        403,
      ),
    );
    const error = (await client
      .continueSignInAs(ben, { clientId: 'app-7', redirectUri: 'https://app.example/cb' })
      .catch((caught: unknown) => caught)) as OperationOutcomeError;
    expect(error.status).toBe(403);
    expect(error.outcome.issue?.[0]?.details?.text).toBe(text);
  });
});

describe('whether an account may continue into an EHR launch (the /oauth chooser asks per account)', () => {
  it("asks with a stored login's own token, and with the active session's for the active one", async () => {
    const ben = account('ben');
    const { alice, fake, client, change } = device([ben]);
    fake.on('GET', `${server}auth/continue/launch/L%2F9`, (call) =>
      jsonResponse(
        call.headers.authorization === `Bearer ${ben.accessToken}`
          ? { usable: false, reason: 'startedBySomeoneElse' }
          : { usable: true },
      ),
    );
    expect(await client.getStoredLaunchAvailability(ben, 'L/9')).toEqual({
      usable: false,
      reason: 'startedBySomeoneElse',
    });
    expect(await client.getLaunchAvailability('L/9')).toEqual({ usable: true });
    expect(fake.calls.map(bearer)).toEqual([`Bearer ${ben.accessToken}`, `Bearer ${alice.accessToken}`]);
    expect(client.getActiveLogin()).toEqual(alice);
    expect(change).not.toHaveBeenCalled();
  });
});

describe('LoginStore.replaceLogin', () => {
  it('puts renewed tokens where the account was, without touching the active login', () => {
    const storage = new MemoryStorage();
    const store = new LoginStore(storage);
    const ben = account('ben', 3600, 'r1');
    const alice = account('alice');
    store.setActiveLogin(ben);
    store.setActiveLogin(alice);
    const activeBefore = storage.getItem(LOGIN_STORAGE_KEYS.activeLogin);
    store.replaceLogin(ben, { ...ben, accessToken: 'renewed', refreshToken: 'r2' });
    expect(store.getLogins().map((login) => login.accessToken)).toEqual(['renewed', alice.accessToken]);
    expect(storage.getItem(LOGIN_STORAGE_KEYS.activeLogin)).toBe(activeBefore);
  });
});
