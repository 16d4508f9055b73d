import { describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInWithScope, tokenRequest } from '../../tests/integration/accounts';
import { isResourceScopeText, parseResourceScope } from '../../data-provider/access';

/* eslint-disable @typescript-eslint/no-explicit-any -- discovery documents are free-form JSON */

/**
 * Outside review: `.well-known/smart-configuration` undersold the server (no `permission-patient`,
 * `permission-v2`; two scopes; no token exchange or jwt-bearer grant). It now says what works, and
 * each claim is checked here against the server.
 */
describe('SMART configuration says what works', () => {
  const configuration = async () =>
    (await http<any>('GET', 'fhir/R4/.well-known/smart-configuration', { token: null })).body;

  it('lists the five grants, and the token endpoint knows each of them', async () => {
    const smart = await configuration();
    expect(smart.grant_types_supported).toEqual([
      'authorization_code',
      'refresh_token',
      'client_credentials',
      'urn:ietf:params:oauth:grant-type:token-exchange',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]);
    for (const grant of smart.grant_types_supported as string[]) {
      const answer = await tokenRequest({ grant_type: grant });
      expect(answer.body.error, grant).not.toBe('unsupported_grant_type');
    }
    expect((await tokenRequest({ grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
  });

  it('claims the v1 and v2, patient and user permissions, and no capability it lacks', async () => {
    const smart = await configuration();
    expect(smart.capabilities).toEqual(
      expect.arrayContaining(['permission-patient', 'permission-user', 'permission-v1', 'permission-v2']),
    );
    for (const missing of ['authorize-post', 'context-banner', 'context-style', 'context-standalone-encounter']) {
      expect(smart.capabilities).not.toContain(missing);
    }
    // No POST to the authorize endpoint (hence no authorize-post).
    expect((await http('POST', 'oauth2/authorize', { token: null, body: {} })).status).toBe(404);
  });

  it('every resource scope it lists parses as the access layer reads it', async () => {
    const smart = await configuration();
    const resourceScopes = (smart.scopes_supported as string[]).filter(isResourceScopeText);
    expect(resourceScopes).toEqual(
      expect.arrayContaining(['patient/*.rs', 'patient/*.read', 'user/*.cruds', 'system/*.read']),
    );
    for (const scope of resourceScopes) expect(parseResourceScope(scope), scope).toBeDefined();
  });

  it('a v2 scope narrows a token as it says (user/Patient.rs: read and search, no create)', async () => {
    const owner = await registerProjectOwner('Discovery Clinic');
    const token = (await signInWithScope(owner.email, owner.password, 'openid user/Patient.rs')).access_token;
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token })).status).toBe(200);
    const created = await http('POST', 'fhir/R4/Patient', { token, body: { resourceType: 'Patient' } });
    expect(created.status).toBe(403);
  });
});
