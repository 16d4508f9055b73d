import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import smart from 'fhirclient';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../fhirClient';
import { postJson, registerProjectOwner, tokenRequest } from '../accounts';
import { pkcePair, type Tokens } from '../signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- discovery documents and OAuth answers are free-form JSON */

/** Issue 18, SMART discovery: what a SMART app reads before it has a token. */
describe('SMART and OpenID discovery under the FHIR base', () => {
  const fhirBase = () => `${baseUrl()}fhir/R4`;

  it('answers smart-configuration and openid-configuration at the FHIR base without a token', async () => {
    const smartConfig = await http<any>('GET', 'fhir/R4/.well-known/smart-configuration', { token: null });
    expect(smartConfig.status).toBe(200);
    expect(smartConfig.body.authorization_endpoint).toBe(`${baseUrl()}oauth2/authorize`);
    expect(smartConfig.body.token_endpoint).toBe(`${baseUrl()}oauth2/token`);
    expect(smartConfig.body.introspection_endpoint).toBe(`${baseUrl()}oauth2/introspect`);
    expect(smartConfig.body.revocation_endpoint).toBe(`${baseUrl()}oauth2/revoke`);
    expect(smartConfig.body.code_challenge_methods_supported).toEqual(['S256']);
    expect(smartConfig.body.capabilities).toEqual(expect.arrayContaining(['launch-standalone', 'client-public']));
    const rootSmart = await http<any>('GET', '.well-known/smart-configuration', { token: null });
    expect(rootSmart.body).toEqual(smartConfig.body);

    const openId = await http<any>('GET', 'fhir/R4/.well-known/openid-configuration', { token: null });
    expect(openId.status).toBe(200);
    expect(openId.body.issuer).toBe(baseUrl());
    expect(openId.body.jwks_uri).toBe(`${baseUrl()}.well-known/jwks.json`);
    expect(openId.body.introspection_endpoint).toBe(`${baseUrl()}oauth2/introspect`);
    expect((await http<any>('GET', '.well-known/openid-configuration', { token: null })).body).toEqual(openId.body);

    // The opening is for the discovery documents only: the rest of the FHIR base still needs a token.
    expect((await http('GET', 'fhir/R4/.well-known/other', { token: null })).status).toBe(401);
    expect((await http('GET', 'fhir/R4/Patient', { token: null })).status).toBe(401);
  });

  it('declares SMART-on-FHIR with the oauth-uris extension in the CapabilityStatement', async () => {
    const metadata = await http<any>('GET', 'fhir/R4/metadata', { token: null });
    const security = metadata.body.rest[0].security;
    expect(security.service[0].coding[0]).toMatchObject({
      system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
      code: 'SMART-on-FHIR',
    });
    const oauthUris = security.extension.find(
      (e: any) => e.url === 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
    );
    const uris = Object.fromEntries(oauthUris.extension.map((e: any) => [e.url, e.valueUri]));
    expect(uris).toEqual({
      authorize: `${baseUrl()}oauth2/authorize`,
      token: `${baseUrl()}oauth2/token`,
      introspect: `${baseUrl()}oauth2/introspect`,
      revoke: `${baseUrl()}oauth2/revoke`,
    });
  });

  describe("fhirclient's authorize step, run in Node by a real app server", () => {
    let app: Server;
    let appUrl: string;
    let clientId: string;

    beforeAll(async () => {
      const owner = await registerProjectOwner();
      app = createServer((request: IncomingMessage, response: ServerResponse) => {
        const session: Record<string, unknown> = {};
        const storage = {
          get: async (key: string) => session[key],
          set: async (key: string, value: unknown) => (session[key] = value),
          unset: async (key: string) => delete session[key],
        };
        smart(request as any, response as any, storage)
          .authorize({ clientId, scope: 'openid fhirUser launch/patient patient/*.read', redirectUri: '/callback' })
          .catch((error: Error) => response.writeHead(500).end(error.message));
      });
      await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
      appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
      const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
        token: owner.tokens.access_token,
        body: { resourceType: 'ClientApplication', name: 'SMART test app', redirectUri: `${appUrl}callback` },
      });
      expect(client.status).toBe(201);
      clientId = client.body.id;
    });

    afterAll(async () => {
      await new Promise((resolve) => app.close(resolve));
    });

    it('finds the authorize endpoint from iss = the FHIR base, and the server accepts the request', async () => {
      const launch = await fetch(`${appUrl}launch?iss=${encodeURIComponent(fhirBase())}`, { redirect: 'manual' });
      expect(launch.status).toBe(302);
      const authorize = new URL(launch.headers.get('location') as string);
      expect(`${authorize.origin}${authorize.pathname}`).toBe(`${baseUrl()}oauth2/authorize`);
      expect(authorize.searchParams.get('aud')).toBe(fhirBase());
      expect(authorize.searchParams.get('client_id')).toBe(clientId);
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');

      // The server takes it to its sign-in page (not an error back to the app).
      const signIn = await fetch(authorize, { redirect: 'manual' });
      expect(signIn.status).toBe(302);
      const page = new URL(signIn.headers.get('location') as string);
      expect(page.pathname).toBe('/oauth');
      expect(page.searchParams.get('error')).toBeNull();
    });
  });
});

describe('token introspection (RFC 7662) and revocation (RFC 7009)', () => {
  const secret = 'introspecting-client-secret-1';
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let other: Awaited<ReturnType<typeof registerProjectOwner>>;
  let resourceServer: string;
  let foreignServer: string;
  let publicApp: string;

  const form = async (path: string, body: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(new URL(path, baseUrl()), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const basic = (id: string, pass: string) => ({
    authorization: `Basic ${Buffer.from(`${id}:${pass}`).toString('base64')}`,
  });
  const newClient = async (token: string, body: Record<string, unknown>) => {
    const answer = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token,
      body: { resourceType: 'ClientApplication', ...body },
    });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };
  /** A token of the public app, through the sign-in API with PKCE. */
  const appTokens = async () => {
    const { verifier, challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      clientId: publicApp,
      redirectUri: 'https://app.example/cb',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(typeof start.body.code).toBe('string');
    // The redirect_uri of the sign-in again: the code is bound to it (RFC 6749 §4.1.3).
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: verifier,
      client_id: publicApp,
      redirect_uri: 'https://app.example/cb',
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    return tokens.body as unknown as Tokens;
  };

  beforeAll(async () => {
    owner = await registerProjectOwner();
    other = await registerProjectOwner();
    resourceServer = await newClient(owner.tokens.access_token, { name: 'Resource server', secret });
    foreignServer = await newClient(other.tokens.access_token, { name: 'Foreign server', secret });
    publicApp = await newClient(owner.tokens.access_token, {
      name: 'Public app',
      redirectUri: 'https://app.example/cb',
    });
  });

  it("describes a live token of the client's own project", async () => {
    const tokens = await appTokens();
    const answer = await form('oauth2/introspect', { token: tokens.access_token }, basic(resourceServer, secret));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      active: true,
      token_type: 'Bearer',
      client_id: publicApp,
      iss: baseUrl(),
      fhirUser: tokens.profile.reference,
    });
    expect(answer.body.exp).toBeGreaterThan(Date.now() / 1000);
    const refresh = await form('oauth2/introspect', {
      token: tokens.refresh_token as string,
      token_type_hint: 'refresh_token',
      client_id: resourceServer,
      client_secret: secret,
    });
    expect(refresh.body).toMatchObject({ active: true, token_type: 'refresh_token', client_id: publicApp });
  });

  it("needs the client's credentials and reveals nothing of another project's tokens", async () => {
    const tokens = await appTokens();
    const anonymous = await form('oauth2/introspect', { token: tokens.access_token });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('invalid_client');
    const wrongSecret = await form('oauth2/introspect', { token: tokens.access_token }, basic(resourceServer, 'guess'));
    expect(wrongSecret.status).toBe(401);
    const publicClient = await form('oauth2/introspect', { token: tokens.access_token, client_id: publicApp });
    expect(publicClient.status).toBe(401);
    // Project B's server: the same answer as for a made-up token.
    const foreign = await form('oauth2/introspect', { token: tokens.access_token }, basic(foreignServer, secret));
    expect(foreign).toEqual({ status: 200, body: { active: false } });
    const madeUp = await form('oauth2/introspect', { token: 'not-a-token' }, basic(resourceServer, secret));
    expect(madeUp).toEqual({ status: 200, body: { active: false } });
    const missing = await form('oauth2/introspect', {}, basic(resourceServer, secret));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
  });

  it('revokes a token for its own client only, and the revoked session stops at once', async () => {
    const tokens = await appTokens();
    // Another client may not end this app's session.
    const byOther = await form('oauth2/revoke', { token: tokens.access_token }, basic(resourceServer, secret));
    expect(byOther.status).toBe(400);
    expect(byOther.body.error).toBe('unauthorized_client');
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: tokens.access_token })).status).toBe(200);

    const revoked = await form('oauth2/revoke', { token: tokens.refresh_token as string, client_id: publicApp });
    expect(revoked.status).toBe(200);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: tokens.access_token })).status).toBe(401);
    const refresh = await form('oauth2/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token as string,
      client_id: publicApp,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    const introspected = await form('oauth2/introspect', { token: tokens.access_token }, basic(resourceServer, secret));
    expect(introspected.body).toEqual({ active: false });
    // Revoking again, or a made-up token, is answered 200 as RFC 7009 asks.
    expect((await form('oauth2/revoke', { token: tokens.access_token, client_id: publicApp })).status).toBe(200);
    expect((await form('oauth2/revoke', { token: 'made-up', client_id: publicApp })).status).toBe(200);
  });
});
