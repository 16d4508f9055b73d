import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../tests/integration/fhirClient';
import { registerProjectOwner } from '../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are free-form JSON */

const appOrigin = 'https://smart-app.example';

function preflight(path: string, method: string, headers: string) {
  return fetch(new URL(path, baseUrl()), {
    method: 'OPTIONS',
    headers: { origin: appOrigin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

/**
 * A SMART app served from its own origin calls the FHIR API and the token endpoint from the
 * browser: without CORS answers its fetches failed before reaching any check.
 */
describe('CORS for browser apps on other origins', () => {
  let token: string;
  beforeAll(async () => {
    token = (await registerProjectOwner()).tokens.access_token as string;
  });

  it('answers a FHIR preflight with the methods and headers a client sends, without credentials', async () => {
    const answer = await preflight('fhir/R4/Patient/some-id', 'PUT', 'authorization, content-type, if-match');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(answer.headers.get('access-control-allow-headers')).toContain('if-match');
    expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    // A cookie or other ambient credential is never invited.
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await answer.text()).toBe('');
    // The token endpoint too, for the caller's own origin with credentials: Medplum's client sends
    // its token request with credentials 'include', for which browsers refuse '*'.
    const token = await preflight('oauth2/token', 'POST', 'content-type');
    expect(token.status).toBe(204);
    expect(token.headers.get('access-control-allow-origin')).toBe(appOrigin);
    expect(token.headers.get('access-control-allow-credentials')).toBe('true');
    expect(token.headers.get('vary')).toContain('Origin');
    // And the discovery documents.
    const discovery = await fetch(new URL('fhir/R4/.well-known/smart-configuration', baseUrl()), {
      headers: { origin: appOrigin },
    });
    expect(discovery.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('lets the app read answers, errors included, and the headers it needs; checks stay as they are', async () => {
    const created = await http<any>('POST', 'fhir/R4/Patient', {
      token,
      headers: { origin: appOrigin },
      body: { resourceType: 'Patient', name: [{ family: 'Crossorigin' }] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    expect(created.headers.get('access-control-expose-headers')).toContain('location');
    expect(created.headers.get('access-control-expose-headers')).toContain('etag');
    // Without a token: refused as ever, and the app can read why.
    const anonymous = await http<any>('GET', 'fhir/R4/Patient', { token: null, headers: { origin: appOrigin } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('access-control-allow-origin')).toBe('*');
    // A call without Origin (same-origin or server-side) carries no CORS headers.
    const plain = await http<any>('GET', `fhir/R4/Patient/${created.body.id}`, { token });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("offers nothing on this server's own sign-in and admin calls", async () => {
    for (const path of ['auth/login', 'auth/me', 'admin/projects', 'oauth2/authorize']) {
      const answer = await preflight(path, 'POST', 'content-type');
      expect(answer.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(answer.status, path).not.toBe(204);
    }
  });

  it('says so in the CapabilityStatement', async () => {
    const metadata = await http<any>('GET', 'fhir/R4/metadata', { token: null });
    expect(metadata.body.rest[0].security.cors).toBe(true);
  });
});
