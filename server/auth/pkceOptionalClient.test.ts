import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, signInThroughClient, tokenRequest } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const secret = 'confidential-client-secret-1';
const redirectUri = 'https://confidential.example/cb';
const needsCredentials = {
  error: 'invalid_client',
  error_description: 'Client authentication (client secret or private_key_jwt) is required without PKCE',
};

/**
 * Issue 14 item 7: a code of a `pkceOptional` client, issued without PKCE, was redeemed by anyone
 * who had it (a leaked redirect, a log) with the client id alone.
 */
describe('codes issued without PKCE need the client credentials', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let clientId: string;
  let basic: string;

  beforeAll(async () => {
    owner = await registerProjectOwner();
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'ClientApplication',
        name: 'Confidential web app',
        secret,
        pkceOptional: true,
        redirectUri,
      },
    });
    clientId = client.body.id;
    basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  });

  async function codeWithoutPkce(): Promise<string> {
    const start = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      clientId,
      redirectUri,
    });
    expect(typeof start.body.code).toBe('string');
    return start.body.code;
  }

  it('refuses the code with the client id alone or a wrong secret, then redeems it with the secret', async () => {
    const code = await codeWithoutPkce();
    // Each names the authorization request's redirect_uri, as the app would: only the credentials are missing.
    const bare = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    expect(bare.status).toBe(401);
    expect(bare.body).toEqual(needsCredentials);
    const anonymous = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
    expect(anonymous.status).toBe(401);
    const wrong = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      client_secret: 'guess',
      redirect_uri: redirectUri,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    // The refused attempts did not use the code up: its owner still can.
    const ok = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      { authorization: basic },
    );
    expect(ok.status).toBe(200);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: ok.body.access_token })).status).toBe(200);

    // Its refresh token is bound the same way.
    const bareRefresh = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: ok.body.refresh_token,
      client_id: clientId,
    });
    expect(bareRefresh.status).toBe(401);
    expect(bareRefresh.body).toEqual(needsCredentials);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: ok.body.refresh_token,
      client_id: clientId,
      client_secret: secret,
    });
    expect(refreshed.status).toBe(200);
  });

  it('another client with valid credentials of its own cannot redeem it', async () => {
    const other = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Other', secret: 'other-secret-123' },
    });
    const code = await codeWithoutPkce();
    const stolen = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      client_id: other.body.id,
      client_secret: 'other-secret-123',
      redirect_uri: redirectUri,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  it('the same client signing in with PKCE stays a public client: the verifier is enough', async () => {
    const tokens = await signInThroughClient(owner.email, owner.password, clientId);
    expect(tokens.status).toBe(200);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
  });
});
