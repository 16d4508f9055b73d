import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoginState } from './authTypes';
import { MemoryStorage } from './clientStorage';
import { FakeFetch, fakeJwt, jsonResponse, type RecordedCall } from './fakeFetch';
import { FhirClient } from './fhirClient';
import { LoginStore } from './loginStore';
import { withAccountRenewalLock } from './accountRenewalLock';

const server = 'http://ehr.test/';
const tokenUrl = `${server}oauth2/token`;
const clientId = 'app-1';

function token(seconds: number, serial: number): string {
  return fakeJwt({ exp: Math.floor(Date.now() / 1000) + seconds, client_id: clientId, sub: 'alice', serial });
}

/**
 * The token endpoint as the server keeps it (server/auth/loginService.ts `refreshTokens`): each
 * refresh token is good once, and presenting a spent one ends the login for everyone.
 */
function rotatingTokenEndpoint(fake: FakeFetch, options: { renewedLifetime?: number } = {}) {
  let latest = 'refresh-0';
  let latestAccess: string | undefined;
  let serial = 0;
  let ended = false;
  fake.on('POST', tokenUrl, (call: RecordedCall) => {
    const presented = new URLSearchParams(call.body as string).get('refresh_token');
    if (ended) return jsonResponse({ error: 'invalid_grant', error_description: 'Invalid refresh token' }, 400);
    if (presented !== latest) {
      ended = true;
      return jsonResponse(
        { error: 'invalid_grant', error_description: 'Refresh token already used; the session has been ended' },
        400,
      );
    }
    serial++;
    latest = `refresh-${serial}`;
    latestAccess = token(options.renewedLifetime ?? 3600, serial);
    return jsonResponse({ access_token: latestAccess, refresh_token: latest });
  });
  // Only the latest access token reads: a request made with a replaced one would fail.
  fake.on('GET', `${server}fhir/R4/Patient/p1`, (call) =>
    call.headers.authorization === `Bearer ${latestAccess}`
      ? jsonResponse({ resourceType: 'Patient', id: 'p1' })
      : jsonResponse({}, 401),
  );
  return { grants: () => serial, ended: () => ended, latest: () => latest };
}

/** Two tabs of the web app: two clients over one browser storage, signed in as Alice whose token is about to expire. */
function twoTabs(expiresIn = 60) {
  const storage = new MemoryStorage();
  const alice: LoginState = {
    accessToken: token(expiresIn, 0),
    refreshToken: 'refresh-0',
    profile: { reference: 'Practitioner/alice' },
    project: { reference: 'Project/p1' },
  };
  new LoginStore(storage).setActiveLogin(alice);
  const fake = new FakeFetch();
  const tab = () => {
    const onUnauthenticated = vi.fn();
    const client = new FhirClient({
      baseUrl: server,
      clientId,
      fetch: fake.fetch,
      storage,
      autoBatchTime: 0,
      onUnauthenticated,
    });
    return { client, onUnauthenticated };
  };
  return { fake, storage, a: tab(), b: tab() };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('renewing one account from two tabs', () => {
  it('two tabs renewing at once: one refresh grant, both take its tokens, nobody is signed out', async () => {
    const { fake, a, b } = twoTabs();
    const endpoint = rotatingTokenEndpoint(fake);
    await Promise.all([a.client.refresh(), b.client.refresh()]);
    expect(endpoint.grants()).toBe(1);
    expect(endpoint.ended()).toBe(false);
    expect(b.client.getAccessToken()).toBe(a.client.getAccessToken());
    expect(a.client.getActiveLogin()?.refreshToken).toBe(endpoint.latest());
    expect(b.client.getActiveLogin()?.refreshToken).toBe(endpoint.latest());
    expect(a.onUnauthenticated).not.toHaveBeenCalled();
    expect(b.onUnauthenticated).not.toHaveBeenCalled();
  });

  it('a tab still holding the spent tokens takes the ones another tab renewed instead of replaying its own', async () => {
    const { fake, a, b } = twoTabs();
    const endpoint = rotatingTokenEndpoint(fake);
    await a.client.refresh();
    // Later, tab b's next request finds its own (in-memory) token about to expire.
    const patient = await b.client.readResource('Patient', 'p1');
    expect(patient.id).toBe('p1');
    expect(endpoint.grants()).toBe(1);
    expect(endpoint.ended()).toBe(false);
    expect(b.client.getAccessToken()).toBe(a.client.getAccessToken());
    const read = fake.callsTo('GET', `${server}fhir/R4/Patient/p1`)[0];
    expect(read?.headers.authorization).toBe(`Bearer ${a.client.getAccessToken()}`);
  });

  it('when the tokens another tab renewed are about to expire too, they are renewed with the newest refresh token', async () => {
    const { fake, a, b } = twoTabs();
    const endpoint = rotatingTokenEndpoint(fake, { renewedLifetime: 60 });
    await a.client.refresh();
    await b.client.refresh();
    expect(endpoint.grants()).toBe(2);
    expect(endpoint.ended()).toBe(false);
    expect(b.client.getActiveLogin()?.refreshToken).toBe('refresh-2');
    expect(b.onUnauthenticated).not.toHaveBeenCalled();
  });

  it("the /oauth account chooser of two tabs renews a stored account's expired token once", async () => {
    const storage = new MemoryStorage();
    const store = new LoginStore(storage);
    const ben: LoginState = {
      accessToken: token(-10, 0),
      refreshToken: 'refresh-0',
      profile: { reference: 'Practitioner/ben' },
      project: { reference: 'Project/p1' },
    };
    store.setActiveLogin(ben);
    store.setActiveLogin({
      accessToken: token(3600, 100),
      profile: { reference: 'Practitioner/alice' },
      project: { reference: 'Project/p1' },
    });
    const fake = new FakeFetch();
    const endpoint = rotatingTokenEndpoint(fake);
    fake.on('GET', `${server}auth/me`, jsonResponse({ profile: { resourceType: 'Practitioner', id: 'ben' } }));
    const tab = () => new FhirClient({ baseUrl: server, clientId, fetch: fake.fetch, storage, autoBatchTime: 0 });
    const [first, second] = await Promise.all([tab().getStoredLoginSession(ben), tab().getStoredLoginSession(ben)]);
    expect(endpoint.grants()).toBe(1);
    expect(endpoint.ended()).toBe(false);
    expect(second.login.accessToken).toBe(first.login.accessToken);
  });

  it("uses the browser's Web Locks, one lock per account, where there are", async () => {
    const names: string[] = [];
    vi.stubGlobal('navigator', {
      locks: {
        request: (name: string, callback: () => Promise<unknown>) => {
          names.push(name);
          return callback();
        },
      },
    });
    const { fake, a } = twoTabs();
    rotatingTokenEndpoint(fake);
    await a.client.refresh();
    expect(names).toEqual(['hearth.renew-login:Project/p1|Practitioner/alice']);
  });

  it('without Web Locks, renewals of one account run one after the other, of different accounts side by side', async () => {
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const alice = {
      accessToken: 'a',
      profile: { reference: 'Practitioner/alice' },
      project: { reference: 'Project/p1' },
    };
    const ben = { accessToken: 'b', profile: { reference: 'Practitioner/ben' }, project: { reference: 'Project/p1' } };
    const first = withAccountRenewalLock(alice, async () => {
      order.push('alice 1 starts');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('alice 1 ends');
    });
    const second = withAccountRenewalLock(alice, async () => {
      order.push('alice 2 starts');
    });
    const other = withAccountRenewalLock(ben, async () => {
      order.push('ben starts');
    });
    await other;
    expect(order).toEqual(['alice 1 starts', 'ben starts']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['alice 1 starts', 'ben starts', 'alice 1 ends', 'alice 2 starts']);
    // A failed renewal does not block the next one.
    await expect(withAccountRenewalLock(alice, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(withAccountRenewalLock(alice, () => Promise.resolve('next'))).resolves.toBe('next');
  });
});
