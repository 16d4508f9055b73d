import { beforeAll, describe, expect, inject, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';
import { appTokens } from './tokenEndpoint.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- userinfo answers are free-form JSON */

/**
 * Outside review: `/oauth2/userinfo` answered the e-mail and the name whatever the token's scopes.
 * Now it follows OpenID Connect Core §5.3/§5.4: a token without `openid` is refused
 * (403 insufficient_scope); `sub` always; the names and `profile` with `profile`; the e-mail with
 * `email`; `fhirUser` with `fhirUser` (SMART App Launch).
 */
describe('oauth2/userinfo answers the claims of the scopes granted', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let userId: string;

  const userinfo = (token: string) => http<any>('GET', 'oauth2/userinfo', { token });
  const scoped = async (scope: string) => (await signInWithScope(owner.email, owner.password, scope)).access_token;

  beforeAll(async () => {
    owner = await registerProjectOwner('Userinfo Clinic');
    userId = (await http<any>('GET', 'auth/me', { token: owner.tokens.access_token })).body.user.id;
  });

  it('openid alone: the subject only', async () => {
    const answer = await userinfo(await scoped('openid'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ sub: userId });
  });

  it('profile adds the names and the profile, never the e-mail', async () => {
    const answer = await userinfo(await scoped('openid profile'));
    expect(answer.body).toEqual({
      sub: userId,
      profile: owner.tokens.profile.reference,
      name: expect.any(String),
      given_name: 'Test',
      family_name: expect.any(String),
    });
    expect(JSON.stringify(answer.body)).not.toContain(owner.email);
  });

  it('email adds the e-mail and whether it is verified, not the names', async () => {
    const answer = await userinfo(await scoped('openid email'));
    expect(answer.body).toEqual({ sub: userId, email: owner.email, email_verified: false });
  });

  it('fhirUser adds the FHIR user', async () => {
    const answer = await userinfo(await scoped('openid fhirUser'));
    expect(answer.body).toEqual({ sub: userId, fhirUser: owner.tokens.profile.reference });
  });

  it('refuses a token without openid (a SMART app that asked for resource scopes only)', async () => {
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'No openid app', redirectUri: 'https://no-openid.example/cb' },
    });
    const { verifier, challenge } = pkcePair();
    const scope = 'user/Observation.rs';
    let step = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      clientId: client.body.id,
      redirectUri: 'https://no-openid.example/cb',
      scope,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    if (step.body.scopes) step = await postJson('auth/scope', { login: step.body.login, scope });
    const tokens = await appTokens(
      { code: step.body.code, verifier },
      { clientId: client.body.id, redirectUri: 'https://no-openid.example/cb' },
    );
    const answer = await userinfo(tokens.access_token);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The access token was not granted the openid scope',
    });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="openid"');
  });

  it("the super admin's web app session (openid profile) gets no e-mail, with email it does", async () => {
    const plain = await userinfo(inject('adminToken'));
    expect(plain.body.email).toBeUndefined();
    expect(plain.body.name).toBeDefined();
    const withEmail = await signInWithScope('admin@example.com', inject('adminPassword'), 'openid email');
    expect((await userinfo(withEmail.access_token)).body).toMatchObject({
      email: 'admin@example.com',
      email_verified: true,
    });
  });
});
