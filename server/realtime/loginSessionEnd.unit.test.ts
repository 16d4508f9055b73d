import type { ClientApplication, Login } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { withAccessTokenExpiry } from '../auth/accessTokenExpiry';
import { loginSessionEnd } from './loginSessionEnd';

const hour = 60 * 60 * 1000;
const grantedAt = Date.parse('2025-06-01T12:00:00.000Z');

const clientSignIn = (extra: Partial<Login> = {}): Login => ({
  resourceType: 'Login',
  id: 'login-1',
  meta: { lastUpdated: new Date(grantedAt).toISOString() },
  user: { reference: 'ClientApplication/client-1' },
  client: { reference: 'ClientApplication/client-1' },
  authMethod: 'client',
  authTime: new Date(grantedAt).toISOString(),
  granted: true,
  ...extra,
});
const client = (accessTokenLifetime?: string): ClientApplication => ({
  resourceType: 'ClientApplication',
  id: 'client-1',
  ...(accessTokenLifetime ? { accessTokenLifetime } : {}),
});

describe('loginSessionEnd for a client signed in with its own credentials', () => {
  it('ends when the access token it was granted expires, as recorded at the grant', () => {
    const granted = withAccessTokenExpiry(clientSignIn(), grantedAt + 2 * hour);
    // The client's lifetime changed since, either way: the token's own expiry counts.
    expect(loginSessionEnd(granted, client('10w'))).toBe(grantedAt + 2 * hour);
    expect(loginSessionEnd(granted, client('1m'))).toBe(grantedAt + 2 * hour);
  });

  it("counts the client's lifetime now for a Login granted before the expiry was recorded", () => {
    expect(loginSessionEnd(clientSignIn(), client('2h'))).toBe(grantedAt + 2 * hour);
    expect(loginSessionEnd(clientSignIn(), undefined)).toBe(grantedAt + hour);
  });

  it('ends at once when the grant time cannot be read and nothing was recorded (fails closed)', () => {
    expect(loginSessionEnd(clientSignIn({ meta: {}, authTime: 'later' }), client('2h'))).toBe(0);
  });
});
