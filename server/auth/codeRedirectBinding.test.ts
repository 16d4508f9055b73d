import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, registerUser } from '../../tests/integration/accounts';
import { identityProviderFor, startOidcProvider, type TestOidcProvider } from '../../tests/integration/oidcProvider';
import { exchangeCode, pkcePair } from '../../tests/integration/signIn';
import { redeem } from './tokenEndpoint.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

/**
 * RFC 6749 §4.1.3 through every sign-in route that issues a code for `/oauth2/authorize` (the
 * `/oauth` page's password sign-in, "Continue as …", an external identity provider): the code is
 * redeemed only with the redirect_uri of the authorization request that produced it. The attack
 * replayed: the app registered two addresses, A and B; a code sent to A (and caught there, in a
 * log or a referrer) was redeemed naming B, or naming none. Before, the routes did not record A on
 * the Login and the token endpoint took either.
 */
const addressA = 'https://two-addresses.example/a';
const addressB = 'https://two-addresses.example/b';
const mismatch = { error: 'invalid_grant', error_description: 'redirect_uri does not match the authorization request' };
const missing = {
  error: 'invalid_request',
  error_description: 'Missing redirect_uri: the authorization request named one',
};

/** A ClientApplication of the owner's project that registered both addresses. */
async function twoAddressApp(ownerToken: string): Promise<string> {
  const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
    token: ownerToken,
    body: { resourceType: 'ClientApplication', name: 'Two addresses', redirectUri: addressA, redirectUris: [addressB] },
  });
  expect(client.status).toBe(201);
  return client.body.id as string;
}

/** The replay: B and no redirect_uri are refused (the code stays usable), A redeems it. */
async function expectBoundToA(issued: { code: string; verifier: string }, clientId: string) {
  const elsewhere = await redeem(issued, { client_id: clientId, redirect_uri: addressB });
  expect(elsewhere.status).toBe(400);
  expect(elsewhere.body).toEqual(mismatch);
  const unnamed = await redeem(issued, { client_id: clientId });
  expect(unnamed.status).toBe(400);
  expect(unnamed.body).toEqual(missing);
  const own = await redeem(issued, { client_id: clientId, redirect_uri: addressA });
  expect(own.status, JSON.stringify(own.body)).toBe(200);
  expect(typeof own.body.access_token).toBe('string');
}

describe('a code is redeemed only with the redirect_uri its authorization request named', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let clientId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Two Address Clinic');
    clientId = await twoAddressApp(owner.tokens.access_token);
  });

  it('a password sign-in on /oauth (auth/login)', async () => {
    const { verifier, challenge } = pkcePair();
    const step = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      clientId,
      redirectUri: addressA,
      scope: 'openid',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(typeof step.body.code, JSON.stringify(step.body)).toBe('string');
    await expectBoundToA({ code: step.body.code, verifier }, clientId);
  });

  it('"Continue as …" from the Hearth EMR session (auth/continue)', async () => {
    const { verifier, challenge } = pkcePair();
    const step = await postJson(
      'auth/continue',
      { clientId, redirectUri: addressA, scope: 'openid', codeChallenge: challenge, codeChallengeMethod: 'S256' },
      owner.tokens.access_token,
    );
    expect(typeof step.body.code, JSON.stringify(step.body)).toBe('string');
    await expectBoundToA({ code: step.body.code, verifier }, clientId);
  });

  describe('through an external identity provider (auth/method, then its callback)', () => {
    let provider: TestOidcProvider;
    beforeAll(async () => {
      provider = await startOidcProvider();
    });
    afterAll(async () => provider.close());

    it('binds the code to the app’s redirect_uri, not to the /oauth page it comes back to', async () => {
      const domain = `two-addresses-${Date.now()}.example`;
      const email = `doctor@${domain}`;
      const own = pkcePair();
      const pending = await registerUser(email, 'unused password 1', own.challenge);
      const project = await postJson('auth/newproject', { login: pending, projectName: 'SSO Two Addresses' });
      const tokens = await exchangeCode(baseUrl(), project.body.code, own.verifier);
      const ssoClientId = await twoAddressApp(tokens.access_token);
      const configured = await http('POST', 'fhir/R4/DomainConfiguration', {
        body: { resourceType: 'DomainConfiguration', domain, identityProvider: identityProviderFor(provider) },
      });
      expect(configured.status).toBe(201);
      provider.person = { sub: `ext-${Date.now()}`, email };

      const { verifier, challenge } = pkcePair();
      const method = await postJson('auth/method', {
        email,
        clientId: ssoClientId,
        clientRedirectUri: addressA,
        redirectUri: `${baseUrl()}oauth`,
        scope: 'openid',
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      });
      expect(method.body.method).toBe('external');
      const atProvider = await fetch(method.body.authorizeUrl, { redirect: 'manual' });
      const atServer = await fetch(atProvider.headers.get('location') as string, { redirect: 'manual' });
      const back = new URL(atServer.headers.get('location') as string);
      expect(back.origin + back.pathname).toBe(`${baseUrl()}oauth`);
      const code = back.searchParams.get('code');
      expect(code, back.toString()).toEqual(expect.any(String));
      await expectBoundToA({ code: code as string, verifier }, ssoClientId);
    });
  });
});
