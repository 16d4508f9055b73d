import type { ClientApplication, Login } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { accessTokenExpiryOf, accessTokenExpiryUrl, withAccessTokenExpiry } from './accessTokenExpiry';
import { loginPrunable, loginRetentionMs } from './loginPrunable';

const day = 24 * 60 * 60 * 1000;
const now = Date.parse('2025-06-01T12:00:00.000Z');
const daysAgo = (days: number) => new Date(now - days * day).toISOString();

/** A granted password sign-in that began and was last written `days` ago. */
function signIn(days: number, extra: Partial<Login> = {}): Login {
  return {
    resourceType: 'Login',
    id: 'login-1',
    meta: { lastUpdated: daysAgo(days) },
    user: { reference: 'User/u1' },
    authMethod: 'password',
    authTime: daysAgo(days),
    granted: true,
    revoked: false,
    ...extra,
  };
}

const client = (extra: Partial<ClientApplication> = {}): ClientApplication => ({
  resourceType: 'ClientApplication',
  id: 'client-1',
  ...extra,
});

describe('loginPrunable', () => {
  it('keeps thirty days after the session ended', () => {
    expect(loginRetentionMs).toBe(30 * day);
  });

  it('prunes a login revoked long ago', () => {
    expect(loginPrunable(signIn(45, { revoked: true }), undefined, now)).toBe(true);
  });

  it('keeps a login revoked yesterday, even when its session ended long before', () => {
    const login = signIn(1, { revoked: true, authTime: daysAgo(60) });
    expect(loginPrunable(login, undefined, now)).toBe(false);
  });

  it('prunes a sign-in whose session ended 31 days ago', () => {
    // Without "Remember me" a session lasts a day: this one began 32 days ago.
    expect(loginPrunable(signIn(32), undefined, now)).toBe(true);
  });

  it('keeps a sign-in whose session ended 29 days ago', () => {
    expect(loginPrunable(signIn(30.5), undefined, now)).toBe(false);
  });

  it('counts "Remember me" sessions to their 14-day end', () => {
    const remembered = {
      extension: [{ url: 'https://hearth-emr.org/fhir/StructureDefinition/login-remember', valueBoolean: true }],
    };
    expect(loginPrunable(signIn(40, remembered), undefined, now)).toBe(false);
    expect(loginPrunable(signIn(45, remembered), undefined, now)).toBe(true);
  });

  it('keeps an active sign-in', () => {
    expect(loginPrunable(signIn(0), undefined, now)).toBe(false);
  });

  it('keeps a sign-in not yet granted while it is recent', () => {
    expect(loginPrunable(signIn(0, { granted: false }), undefined, now)).toBe(false);
    expect(loginPrunable(signIn(40, { granted: false }), undefined, now)).toBe(true);
  });

  it("counts a client's own sign-in by its access token lifetime", () => {
    const login = signIn(35, { authMethod: 'client', client: { reference: 'ClientApplication/client-1' } });
    // Default lifetime (1 hour) ended 35 days ago.
    expect(loginPrunable(login, client(), now)).toBe(true);
    // A 10-week token granted 35 days ago is still valid.
    expect(loginPrunable(login, client({ accessTokenLifetime: '10w' }), now)).toBe(false);
    // A 4-day token ended 31 days ago.
    expect(loginPrunable(login, client({ accessTokenLifetime: '4d' }), now)).toBe(true);
  });

  it("keeps a person's sign-in while the client's long access token may still be used", () => {
    const login = signIn(35, { client: { reference: 'ClientApplication/client-1' } });
    expect(loginPrunable(login, client({ accessTokenLifetime: '8w' }), now)).toBe(false);
    expect(loginPrunable(login, client({ accessTokenLifetime: '1h' }), now)).toBe(true);
  });

  it("counts the access token's expiry recorded at the grant over the client's lifetime now", () => {
    const granted = signIn(35, { authMethod: 'client', client: { reference: 'ClientApplication/client-1' } });
    // Granted 35 days ago for ten weeks; the client's lifetime was cut to an hour since.
    const tenWeeks = withAccessTokenExpiry(granted, now - 35 * day + 70 * day);
    expect(loginPrunable(tenWeeks, client({ accessTokenLifetime: '1h' }), now)).toBe(false);
    // Granted 35 days ago for an hour; the client's lifetime was raised to ten weeks since.
    const anHour = withAccessTokenExpiry(granted, now - 35 * day + 60 * 60 * 1000);
    expect(loginPrunable(anHour, client({ accessTokenLifetime: '10w' }), now)).toBe(true);
    // Unreadable record: the client's lifetime now, as for Logins granted before it was recorded.
    const unreadable = { ...granted, extension: [{ url: accessTokenExpiryUrl, valueInstant: 'soon' }] };
    expect(loginPrunable(unreadable, client({ accessTokenLifetime: '10w' }), now)).toBe(false);
    expect(loginPrunable(unreadable, client({ accessTokenLifetime: '1h' }), now)).toBe(true);
  });

  it('records one access token expiry per Login, the latest grant replacing the one before', () => {
    const remembered = { url: 'https://hearth-emr.org/fhir/StructureDefinition/login-remember', valueBoolean: true };
    const first = withAccessTokenExpiry(signIn(0, { extension: [remembered] }), now + 3600_000);
    const second = withAccessTokenExpiry(first, now + 7200_000);
    expect(second.extension).toEqual([
      remembered,
      { url: accessTokenExpiryUrl, valueInstant: new Date(now + 7200_000).toISOString() },
    ]);
    expect(accessTokenExpiryOf(second)).toBe(now + 7200_000);
    expect(accessTokenExpiryOf(signIn(0))).toBeUndefined();
  });

  it('keeps a login whose client cannot be read (its lifetimes are unknown)', () => {
    const login = signIn(60, { authMethod: 'client', client: { reference: 'ClientApplication/gone' } });
    expect(loginPrunable(login, undefined, now)).toBe(false);
  });

  it('keeps a login whose times cannot be read: deleting is the side that cannot be undone', () => {
    expect(loginPrunable(signIn(60, { meta: {} }), undefined, now)).toBe(false);
    expect(loginPrunable(signIn(60, { meta: { lastUpdated: 'yesterday' } }), undefined, now)).toBe(false);
    expect(loginPrunable(signIn(60, { authTime: 'not a time' }), undefined, now)).toBe(false);
    expect(loginPrunable(signIn(60, { authTime: undefined }), undefined, now)).toBe(false);
    const client = { authMethod: 'client' as const, client: { reference: 'ClientApplication/client-1' } };
    expect(loginPrunable(signIn(60, { ...client, meta: {} }), undefined, now)).toBe(false);
  });

  it('takes the retention it is given', () => {
    expect(loginPrunable(signIn(5), undefined, now, 2 * day)).toBe(true);
    expect(loginPrunable(signIn(5), undefined, now, 4 * day)).toBe(false);
  });
});
