import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
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
});
