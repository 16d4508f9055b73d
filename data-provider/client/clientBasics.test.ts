import { describe, expect, it } from 'vitest';
import {
  accessTokenProblem,
  base64UrlEncode,
  BROWSER_CACHE_TIME,
  createCodeChallenge,
  createCodeVerifier,
  createRandomString,
  decodeAccessTokenClaims,
  DEFAULT_AUTO_BATCH_TIME,
  DEFAULT_FHIR_URL_PATH,
  DEFAULT_RESOURCE_CACHE_SIZE,
  DEFAULT_SCOPE,
  LOGIN_STORAGE_KEYS,
  LoginStore,
  MAX_RETRIES,
  MemoryStorage,
  NODE_CACHE_TIME,
  parseReference,
  PKCE_METHOD,
  PKCE_VERIFIER_LENGTH,
  POLL_INTERVAL,
  queryString,
  referenceTo,
  REFRESH_GRACE_PERIOD,
  RETRY_DELAY,
  ServerUrls,
  tokenClientIds,
  UNRESERVED_ALPHABET,
} from './index';
import { fakeJwt } from './fakeFetch';

describe('constants (spec §9)', () => {
  it('has the specified values', () => {
    expect(BROWSER_CACHE_TIME).toBe(60000);
    expect(NODE_CACHE_TIME).toBe(0);
    expect(DEFAULT_RESOURCE_CACHE_SIZE).toBe(1000);
    expect(DEFAULT_AUTO_BATCH_TIME).toBe(100);
    expect(REFRESH_GRACE_PERIOD).toBe(300000);
    expect(MAX_RETRIES).toBe(2);
    expect(RETRY_DELAY).toBe(200);
    expect(POLL_INTERVAL).toBe(1000);
    expect(PKCE_VERIFIER_LENGTH).toBe(128);
    expect(PKCE_METHOD).toBe('S256');
    expect(DEFAULT_SCOPE).toBe('openid profile');
    expect(DEFAULT_FHIR_URL_PATH).toBe('fhir/R4');
  });
});

describe('ServerUrls', () => {
  it("refuses a base URL that does not start with http: 'Not a valid URL'", () => {
    for (const baseUrl of ['ftp://x.org/', 'localhost:8103', '', '/relative', 'http://']) {
      expect(() => new ServerUrls({ baseUrl, fhirUrlPath: 'fhir/R4' }), baseUrl).toThrow('Not a valid URL');
    }
  });

  it('normalizes slashes and builds FHIR, auth and OAuth addresses', () => {
    const urls = new ServerUrls({ baseUrl: 'https://ehr.example/api', fhirUrlPath: '/fhir/R4/' });
    expect(urls.baseUrl).toBe('https://ehr.example/api/');
    expect(urls.fhirBaseUrl).toBe('https://ehr.example/api/fhir/R4/');
    expect(urls.fhirUrl('Patient', '123').toString()).toBe('https://ehr.example/api/fhir/R4/Patient/123');
    expect(urls.fhirUrl('Patient', '1', '$everything').toString()).toBe(
      'https://ehr.example/api/fhir/R4/Patient/1/$everything',
    );
    expect(urls.url('auth/me').toString()).toBe('https://ehr.example/api/auth/me');
    expect(urls.tokenUrl).toBe('https://ehr.example/api/oauth2/token');
    expect(urls.authorizeUrl).toBe('https://ehr.example/api/oauth2/authorize');
    expect(urls.logoutUrl).toBe('https://ehr.example/api/oauth2/logout');
    expect(new ServerUrls({ baseUrl: 'http://a/', fhirUrlPath: 'x', tokenUrl: 'http://idp/token' }).tokenUrl).toBe(
      'http://idp/token',
    );
  });

  it('tells the resource type, searches, operations and the base apart', () => {
    const urls = new ServerUrls({ baseUrl: 'http://s/', fhirUrlPath: 'fhir/R4' });
    expect(urls.resourceTypeOf('http://s/fhir/R4/Patient?name=x')).toBe('Patient');
    expect(urls.resourceTypeOf('http://s/fhir/R4/Patient/1/_history')).toBe('Patient');
    expect(urls.resourceTypeOf('http://s/fhir/R4/$graphql')).toBeUndefined();
    expect(urls.resourceTypeOf('http://s/auth/me')).toBeUndefined();
    expect(urls.isSearchUrl('http://s/fhir/R4/Patient?name=x')).toBe(true);
    expect(urls.isSearchUrl('http://s/fhir/R4/Patient/1')).toBe(false);
    expect(urls.isOperationUrl('http://s/fhir/R4/Patient/$validate')).toBe(true);
    expect(urls.isOperationUrl('http://s/fhir/R4/Patient/1')).toBe(false);
    expect(urls.isFhirBase('http://s/fhir/R4/')).toBe(true);
    expect(urls.isFhirBase('http://s/fhir/R4/Patient')).toBe(false);
    expect(urls.fhirRelativeUrl('http://s/fhir/R4/Patient?x=1')).toBe('Patient?x=1');
  });

  it('formats queries from strings, URLSearchParams and records', () => {
    expect(queryString('?a=1')).toBe('a=1');
    expect(queryString(new URLSearchParams({ a: 'x y' }))).toBe('a=x+y');
    expect(queryString({ name: 'eve', _count: 5, active: true, code: ['a', 'b'], skip: undefined })).toBe(
      'name=eve&_count=5&active=true&code=a&code=b',
    );
    const urls = new ServerUrls({ baseUrl: 'http://s/', fhirUrlPath: 'fhir/R4' });
    expect(urls.fhirSearchUrl('Observation', { code: 'http://loinc.org|1234-5' }).toString()).toBe(
      'http://s/fhir/R4/Observation?code=http://loinc.org|1234-5',
    );
  });
});

describe('references', () => {
  it('refers to Type/id and parses only Type/id', () => {
    expect(referenceTo({ resourceType: 'Patient', id: '1' })).toEqual({ reference: 'Patient/1' });
    expect(() => referenceTo({ resourceType: 'Patient' })).toThrow('has no id');
    expect(parseReference({ reference: 'Patient/abc-1' })).toEqual(['Patient', 'abc-1']);
    expect(parseReference('Observation/9')).toEqual(['Observation', '9']);
    for (const bad of ['Patient', 'Patient/', '/1', 'patient/1', 'http://x/Patient/1', '#contained', undefined]) {
      expect(() => parseReference(bad === undefined ? {} : { reference: bad }), String(bad)).toThrow(
        'expected ResourceType/id',
      );
    }
  });
});

describe('PKCE', () => {
  it('makes a 128-character verifier from the unreserved alphabet', () => {
    const verifier = createCodeVerifier();
    expect(verifier).toHaveLength(128);
    expect([...verifier].every((char) => UNRESERVED_ALPHABET.includes(char))).toBe(true);
    expect(createCodeVerifier()).not.toBe(verifier);
    expect(UNRESERVED_ALPHABET).toHaveLength(66);
  });

  it('uses every letter of the alphabet', () => {
    const seen = new Set(createRandomString(5000, 'ab'));
    expect(seen).toEqual(new Set(['a', 'b']));
  });

  it('computes the S256 challenge of RFC 7636 appendix B', async () => {
    expect(await createCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    expect(base64UrlEncode(new Uint8Array([251, 255]))).toBe('-_8');
  });
});

describe('access token claims', () => {
  const now = 1_700_000_000_000;

  it('decodes JWT claims and ignores opaque tokens', () => {
    expect(decodeAccessTokenClaims(fakeJwt({ exp: 5, client_id: 'c', name: 'Zoë' }))).toMatchObject({
      exp: 5,
      client_id: 'c',
      name: 'Zoë',
    });
    expect(decodeAccessTokenClaims('opaque-token')).toBeUndefined();
    expect(decodeAccessTokenClaims('a.%%%.c')).toBeUndefined();
  });

  it('finds the client in client_id, else aud', () => {
    expect(tokenClientIds({ client_id: 'a', aud: 'b' })).toEqual(['a']);
    expect(tokenClientIds({ aud: 'b' })).toEqual(['b']);
    expect(tokenClientIds({ aud: ['b', 'c'] })).toEqual(['b', 'c']);
    expect(tokenClientIds({})).toEqual([]);
  });

  it('refuses expired tokens and tokens of another client', () => {
    const valid = fakeJwt({ exp: now / 1000 + 3600, client_id: 'app' });
    expect(accessTokenProblem(valid, 'app', now)).toBeUndefined();
    expect(accessTokenProblem(valid, undefined, now)).toBeUndefined();
    expect(accessTokenProblem(fakeJwt({ exp: now / 1000 - 1 }), 'app', now)?.issue[0].details?.text).toBe(
      'Token expired',
    );
    expect(accessTokenProblem(valid, 'other', now)?.issue[0].details?.text).toBe('token not issued for this audience');
    expect(accessTokenProblem(fakeJwt({ aud: ['x', 'app'] }), 'app', now)).toBeUndefined();
    expect(accessTokenProblem('opaque', 'app', now)).toBeUndefined();
  });
});

describe('LoginStore', () => {
  it('keeps several logins, replaces the same account and tracks the active one', () => {
    const storage = new MemoryStorage();
    const store = new LoginStore(storage);
    const alice = { accessToken: 'a1', profile: { reference: 'Practitioner/a' }, project: { reference: 'Project/p' } };
    const bob = { accessToken: 'b1', profile: { reference: 'Practitioner/b' }, project: { reference: 'Project/p' } };
    store.setActiveLogin(alice);
    store.setActiveLogin(bob);
    store.setActiveLogin({ ...alice, accessToken: 'a2' });
    expect(store.getLogins().map((login) => login.accessToken)).toEqual(['b1', 'a2']);
    expect(store.getActiveLogin()?.accessToken).toBe('a2');
    store.removeLogin(bob);
    expect(store.getLogins().map((login) => login.accessToken)).toEqual(['a2']);
    store.clearActiveLogin();
    expect(store.getActiveLogin()).toBeUndefined();
    expect(store.getLogins()).toHaveLength(1);
  });

  it('ignores malformed stored values', () => {
    const storage = new MemoryStorage();
    storage.setItem(LOGIN_STORAGE_KEYS.activeLogin, '{not json');
    storage.setItem(LOGIN_STORAGE_KEYS.logins, '{"a":1}');
    const store = new LoginStore(storage);
    expect(store.getActiveLogin()).toBeUndefined();
    expect(store.getLogins()).toEqual([]);
  });

  it('keeps and forgets the PKCE values of a sign-in in progress', () => {
    const storage = new MemoryStorage();
    const store = new LoginStore(storage);
    store.setCodeVerifier('v');
    store.setOAuthState('s');
    expect(store.getCodeVerifier()).toBe('v');
    expect(store.getOAuthState()).toBe('s');
    store.clearPendingSignIn();
    expect(store.getCodeVerifier()).toBeUndefined();
    expect(store.getOAuthState()).toBeUndefined();
    store.setActiveLogin({ accessToken: 'x' });
    store.clear();
    expect(storage.length).toBe(0);
  });
});
