import { describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

// The web app's /oauth page sends the app's redirect_uri with auth/login: a crafted /oauth link with
// another address must not get a code for that client.
describe('auth/login for a third-party app names its redirect URI', () => {
  it('accepts a registered redirect URI and refuses any other, without a code', async () => {
    const owner = await registerProjectOwner();
    const client = await http('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Redirect check', redirectUri: 'https://app.example/cb' },
    });
    expect(client.status).toBe(201);
    const clientId = (client.body as any).id as string;
    const { challenge } = pkcePair();
    const start = (redirectUri: string) =>
      postJson('auth/login', {
        email: owner.email,
        password: owner.password,
        clientId,
        redirectUri,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      });
    const refused = await start('https://evil.example/cb');
    expect(refused.status).toBe(400);
    expect(issueText(refused.body)).toBe('Invalid redirect_uri');
    expect(issueExpressions(refused.body)).toEqual(['redirectUri']);
    expect(refused.body.code).toBeUndefined();
    const accepted = await start('https://app.example/cb');
    expect(accepted.status).toBe(200);
    expect(typeof accepted.body.code).toBe('string');
  });

  it('checks the app redirect URI before sending a user of an SSO domain to its identity provider', async () => {
    const owner = await registerProjectOwner();
    const client = await http('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'SSO redirect check', redirectUri: 'https://app.example/cb' },
    });
    const clientId = (client.body as any).id as string;
    const domain = `sso-redirect-${Date.now()}.example`;
    const configured = await http('POST', 'fhir/R4/DomainConfiguration', {
      body: {
        resourceType: 'DomainConfiguration',
        domain,
        identityProvider: {
          authorizeUrl: 'https://idp.example/authorize',
          tokenUrl: 'https://idp.example/token',
          userInfoUrl: 'https://idp.example/userinfo',
          clientId: 'hearth',
          clientSecret: 'not-used-here',
        },
      },
    });
    expect(configured.status).toBe(201);
    const { challenge } = pkcePair();
    const method = (clientRedirectUri: string) =>
      postJson('auth/method', {
        email: `someone@${domain}`,
        clientId,
        clientRedirectUri,
        scope: 'openid patient/*.read',
        redirectUri: `${baseUrl()}oauth`,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      });
    const refused = await method('https://evil.example/cb');
    expect(refused.status).toBe(400);
    expect(issueExpressions(refused.body)).toEqual(['clientRedirectUri']);
    expect(refused.body.authorizeUrl).toBeUndefined();
    const accepted = await method('https://app.example/cb');
    expect(accepted.status).toBe(200);
    expect(accepted.body.method).toBe('external');
    expect(new URL(accepted.body.authorizeUrl).origin).toBe('https://idp.example');
  });
});
