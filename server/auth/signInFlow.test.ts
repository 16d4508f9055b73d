import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt, createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import {
  loginStart,
  postJson,
  registerProjectOwner,
  registerUser,
  signInWithScope,
  uniqueEmail,
} from '../../tests/integration/accounts';
import { exchangeCode, pkcePair, signIn } from '../../tests/integration/signIn';
import {
  identityProviderFor,
  startOidcProvider,
  providerAccessToken,
  type TestOidcProvider,
} from '../../tests/integration/oidcProvider';
import { totpCode } from './totp';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

async function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(new URL('oauth2/token', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('password sign-in with PKCE', () => {
  it('registers a user and a project, then signs in and answers /auth/me', async () => {
    const owner = await registerProjectOwner('Clinic Alpha');
    const again = await loginStart(owner.email, owner.password, { remember: true });
    expect(again.status).toBe(200);
    expect(typeof again.body.code).toBe('string');
    const tokens = await exchangeCode(baseUrl(), again.body.code, again.verifier);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    const claims = decodeJwt(tokens.access_token);
    expect(claims.aud).toBe('hearth-emr-app');
    expect(claims.profile).toMatch(/^Practitioner\//);

    const me = await http<any>('GET', 'auth/me', { token: tokens.access_token });
    expect(me.status).toBe(200);
    expect(me.body.project.name).toBe('Clinic Alpha');
    expect(me.body.project.superAdmin).toBeUndefined();
    expect(me.body.membership.admin).toBe(true);
    expect(me.body.profile.resourceType).toBe('Practitioner');
    expect(me.body.user.email).toBe(owner.email);
    expect(me.body.user.passwordHash).toBeUndefined();
    expect(me.body.security.sessions.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a wrong verifier, a reused code and a sign-in without PKCE', async () => {
    const owner = await registerProjectOwner();
    const start = await loginStart(owner.email, owner.password);
    const wrong = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: pkcePair().verifier,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', error_description: 'Invalid code_verifier' });
    const right = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: start.verifier,
    });
    expect(right.status).toBe(200);
    const reused = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: start.verifier,
    });
    expect(reused.body.error).toBe('invalid_grant');

    const noPkce = await postJson('auth/login', { email: owner.email, password: owner.password });
    expect(noPkce.status).toBe(400);
    expect(issueExpressions(noPkce.body)).toEqual(['codeChallenge']);
    const plain = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      codeChallenge: 'x'.repeat(43),
      codeChallengeMethod: 'plain',
    });
    expect(issueText(plain.body)).toBe('codeChallengeMethod must be S256');
    const missing = await tokenRequest({ grant_type: 'authorization_code' });
    expect(missing.body).toMatchObject({ error: 'invalid_request', error_description: 'Missing code' });
    const unknownGrant = await tokenRequest({ grant_type: 'password' });
    expect(unknownGrant.body.error).toBe('unsupported_grant_type');
  });

  it('rotates refresh tokens, ends the session when an old one is replayed, and revokes on logout', async () => {
    const owner = await registerProjectOwner();
    const first = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: owner.tokens.refresh_token as string,
    });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(owner.tokens.refresh_token);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: first.body.access_token })).status).toBe(200);

    const replay = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: owner.tokens.refresh_token as string,
    });
    expect(replay.body.error).toBe('invalid_grant');
    // The replay ended the login: the newest tokens stop working too.
    const after = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(after.body.error).toBe('invalid_grant');
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: first.body.access_token })).status).toBe(401);

    const other = await signIn(baseUrl(), owner.email, owner.password);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: other.access_token })).status).toBe(200);
    const patient = await http<any>('POST', 'fhir/R4/Patient', {
      token: other.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Logout' }] },
    });
    expect(patient.status).toBe(201);
    // Read by id with the caller cached: its check rides on the read's statement (authenticate.ts).
    expect((await http('GET', `fhir/R4/Patient/${patient.body.id}`, { token: other.access_token })).status).toBe(200);
    const logout = await postJson('oauth2/logout', {}, other.access_token);
    expect(logout.status).toBe(200);
    // The first request after the logout is a read by id, while the caller is still cached.
    const deniedRead = await http('GET', `fhir/R4/Patient/${patient.body.id}`, { token: other.access_token });
    expect(deniedRead.status).toBe(401);
    expect(issueText(deniedRead.body)).toBe('Unauthorized');
    const denied = await http('GET', 'fhir/R4/Patient?_count=1', { token: other.access_token });
    expect(denied.status).toBe(401);
    expect(issueText(denied.body)).toBe('Unauthorized');
    const refreshAfterLogout = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: other.refresh_token as string,
    });
    expect(refreshAfterLogout.body.error).toBe('invalid_grant');
  });

  it('asks for a TOTP code once MFA is enrolled, and refuses a wrong one', async () => {
    const owner = await registerProjectOwner();
    const token = owner.tokens.access_token;
    const status = await http<any>('GET', 'auth/mfa/status', { token });
    expect(status.body.enrolled).toBe(false);
    const secret = new URL(status.body.enrollUri).searchParams.get('secret') as string;
    expect(
      (await postJson('auth/mfa/enroll', { token: '000000' === totpCode(secret) ? '111111' : '000000' }, token)).status,
    ).toBe(400);
    expect((await postJson('auth/mfa/enroll', { token: totpCode(secret) }, token)).body.enrolled).toBe(true);

    const start = await loginStart(owner.email, owner.password);
    expect(start.body).toEqual({ login: start.body.login, mfaRequired: true });
    const wrong = await postJson('auth/mfa/verify', {
      login: start.body.login,
      token: totpCode(secret, Date.now() - 10 * 60_000),
    });
    expect(wrong.status).toBe(400);
    expect(issueText(wrong.body)).toBe('Invalid MFA code');
    // The next step's code: the one that enrolled is used up (a code is accepted once).
    const ok = await postJson('auth/mfa/verify', {
      login: start.body.login,
      token: totpCode(secret, Date.now() + 30_000),
    });
    expect(typeof ok.body.code).toBe('string');
    await exchangeCode(baseUrl(), ok.body.code, start.verifier);
  });

  it('lets a user with several memberships choose a profile', async () => {
    const owner = await registerProjectOwner('First Clinic');
    // A second project for the same user: sign-in, then create another project from a pending login.
    const { challenge } = pkcePair();
    const pending = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    await postJson('auth/newproject', { login: pending.body.login, projectName: 'Second Clinic' });

    const start = await loginStart(owner.email, owner.password);
    const memberships = start.body.memberships as { id: string; project: { display: string } }[];
    expect(memberships.map((m) => m.project.display).sort()).toEqual(['First Clinic', 'Second Clinic']);
    const foreign = await postJson('auth/profile', { login: start.body.login, profile: 'not-a-membership' });
    expect(foreign.status).toBe(400);
    expect(issueExpressions(foreign.body)).toEqual(['profile']);
    const second = memberships.find((m) => m.project.display === 'Second Clinic') as { id: string };
    const chosen = await postJson('auth/profile', { login: start.body.login, profile: second.id });
    const tokens = await exchangeCode(baseUrl(), chosen.body.code, start.verifier);
    const me = await http<any>('GET', 'auth/me', { token: tokens.access_token });
    expect(me.body.project.name).toBe('Second Clinic');

    const status = await http<any>('GET', `auth/login/${start.body.login}`);
    expect(status.status).toBe(400); // granted logins are no longer pending
  });

  it('asks to confirm SMART scopes before issuing a code', async () => {
    const owner = await registerProjectOwner();
    const start = await loginStart(owner.email, owner.password, {
      scope: 'openid profile patient/*.read user/Observation.read',
    });
    expect(start.body.scopes).toEqual(['patient/*.read', 'user/Observation.read']);
    const extra = await postJson('auth/scope', { login: start.body.login, scope: 'user/*.*' });
    expect(issueText(extra.body)).toBe('Scope not requested by the client: user/*.*');
    const ok = await postJson('auth/scope', { login: start.body.login, scope: 'patient/*.read' });
    const tokens = await exchangeCode(baseUrl(), ok.body.code, start.verifier);
    expect(decodeJwt(tokens.access_token).scope).toBe('openid profile patient/*.read');
  });

  it('registers a patient only in projects that allow it', async () => {
    const owner = await registerProjectOwner('Open Clinic');
    const denied = await (async () => {
      const { challenge } = pkcePair();
      const login = await registerUser(uniqueEmail('patient'), 'patient password 1', challenge);
      return postJson('auth/newpatient', { login, projectId: owner.projectId });
    })();
    expect(denied.status).toBe(403);
    expect(issueText(denied.body)).toBe('This project does not allow patients to register themselves');

    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'AccessPolicy',
        name: 'Patients',
        resource: [{ resourceType: '*', compartment: { reference: '%profile' } }],
      },
    });
    const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token: owner.tokens.access_token });
    const saved = await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
      token: owner.tokens.access_token,
      body: { ...project.body, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.body.id}` } },
    });
    expect(saved.status).toBe(200);

    const { verifier, challenge } = pkcePair();
    const login = await registerUser(uniqueEmail('patient'), 'patient password 1', challenge);
    const registered = await postJson('auth/newpatient', { login, projectId: owner.projectId });
    const tokens = await exchangeCode(baseUrl(), registered.body.code, verifier);
    expect(tokens.profile.reference).toMatch(/^Patient\//);
    const own = await http<any>('GET', `fhir/R4/${tokens.profile.reference}`, { token: tokens.access_token });
    expect(own.status).toBe(200);
    const others = await http<any>('GET', 'fhir/R4/Patient', { token: tokens.access_token });
    expect(others.body.entry.map((e: { resource: { id: string } }) => `Patient/${e.resource.id}`)).toEqual([
      tokens.profile.reference,
    ]);
  });

  it('answers the same for a wrong password and an unknown e-mail, then locks the account out', async () => {
    const owner = await registerProjectOwner();
    const unknown = await loginStart(uniqueEmail('nobody'), 'whatever password');
    const wrong = await loginStart(owner.email, 'not the password');
    expect(unknown.status).toBe(400);
    expect(wrong.status).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
    expect(issueText(wrong.body)).toBe('Email or password is invalid');

    let last = wrong;
    for (let attempt = 2; attempt <= 11 && last.status !== 429; attempt++)
      last = await loginStart(owner.email, 'not the password');
    expect(last.status).toBe(429);
    expect(issueText(last.body)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
    // Even the right password is refused while the lock lasts.
    const right = await loginStart(owner.email, owner.password);
    expect(right.status).toBe(429);
  }, 60_000);

  it('refuses missing, expired, foreign-audience and tampered tokens', async () => {
    const none = await http('GET', 'fhir/R4/Patient', { token: null });
    expect(none.status).toBe(401);
    expect(issueText(none.body)).toBe('Unauthorized');
    const expired = await http<any>('GET', 'fhir/R4/Patient', { token: inject('expiredToken') });
    expect(expired.status).toBe(401);
    expect(issueText(expired.body)).toBe('Token expired');
    expect(expired.body.issue[0]).toMatchObject({ code: 'login', details: { coding: [{ code: 'expired' }] } });
    const foreign = await http<any>('GET', 'fhir/R4/Patient', { token: inject('foreignAudienceToken') });
    expect(foreign.status).toBe(401);
    expect(issueText(foreign.body)).toBe('token not issued for this audience');
    const admin = inject('adminToken');
    const tampered = `${admin.slice(0, -4)}${admin.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    expect((await http('GET', 'fhir/R4/Patient', { token: tampered })).status).toBe(401);
    expect((await http('GET', 'fhir/R4/metadata', { token: null })).status).toBe(200);
  });

  it('publishes discovery documents and keys that verify its tokens', async () => {
    const config = await http<any>('GET', '.well-known/openid-configuration', { token: null });
    expect(config.body.token_endpoint).toBe(`${baseUrl()}oauth2/token`);
    expect(config.body.code_challenge_methods_supported).toEqual(['S256']);
    const smart = await http<any>('GET', '.well-known/smart-configuration', { token: null });
    expect(smart.body.capabilities).toContain('launch-standalone');
    const keys = createRemoteJWKSet(new URL(config.body.jwks_uri));
    const { payload } = await jwtVerify(inject('adminToken'), keys, { issuer: baseUrl() });
    expect(payload.login_id).toBeTruthy();
    // Each claim under its scope (OpenID Connect Core §5.4; userInfoScopes.test.ts).
    const scoped = await signInWithScope('admin@example.com', inject('adminPassword'), 'openid email fhirUser');
    const userinfo = await http<any>('GET', 'oauth2/userinfo', { token: scoped.access_token });
    expect(userinfo.body).toMatchObject({
      email: 'admin@example.com',
      fhirUser: expect.stringMatching(/^Practitioner\//),
    });
  });

  it('resets a forgotten password through the e-mail outbox, once', async () => {
    const owner = await registerProjectOwner();
    const outbox = join(inject('dataDir'), 'outbox');
    expect((await postJson('auth/resetpassword', { email: owner.email })).body).toEqual({ ok: true });
    expect((await postJson('auth/resetpassword', { email: uniqueEmail('ghost') })).body).toEqual({ ok: true });
    const messages = readdirSync(outbox).map(
      (file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { to: string; text: string },
    );
    const mine = messages.filter((m) => m.to === owner.email);
    expect(mine).toHaveLength(1);
    const link = /setpassword\/([^/\s]+)\/(\S+)/.exec(mine[0].text) as RegExpExecArray;
    const weak = await postJson('auth/setpassword', { id: link[1], secret: link[2], password: 'short' });
    expect(issueExpressions(weak.body)).toEqual(['password']);
    expect(
      (await postJson('auth/setpassword', { id: link[1], secret: link[2], password: 'a brand new password' })).status,
    ).toBe(200);
    expect(
      (await postJson('auth/setpassword', { id: link[1], secret: link[2], password: 'another new password' })).status,
    ).toBe(400);
    await signIn(baseUrl(), owner.email, 'a brand new password');
    expect((await loginStart(owner.email, owner.password)).status).toBe(400);
  });

  it('changes a password only with the current one', async () => {
    const owner = await registerProjectOwner();
    const token = owner.tokens.access_token;
    const wrong = await postJson(
      'auth/changepassword',
      { oldPassword: 'nope', newPassword: 'new password 123' },
      token,
    );
    expect(issueExpressions(wrong.body)).toEqual(['oldPassword']);
    expect(
      (await postJson('auth/changepassword', { oldPassword: owner.password, newPassword: 'new password 123' }, token))
        .status,
    ).toBe(200);
    await signIn(baseUrl(), owner.email, 'new password 123');
  });

  it('says Google sign-in is off without GOOGLE_CLIENT_ID', async () => {
    const answer = await postJson('auth/google', {
      googleCredential: 'x',
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
    });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toContain('Google sign-in is not enabled');
  });
});

describe('ClientApplications', () => {
  /** A ClientApplication of a new project, with a membership of its own there (so it may sign in as itself). */
  async function projectClient(fields: Record<string, unknown>): Promise<{ body: { id: string } }> {
    const owner = await registerProjectOwner();
    const token = owner.tokens.access_token;
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token,
      body: { resourceType: 'ClientApplication', ...fields },
    });
    expect(
      (
        await http('POST', 'fhir/R4/ProjectMembership', {
          token,
          body: {
            resourceType: 'ProjectMembership',
            project: { reference: `Project/${owner.projectId}` },
            user: { reference: `ClientApplication/${client.body.id}` },
            profile: { reference: `ClientApplication/${client.body.id}` },
          },
        })
      ).status,
    ).toBe(201);
    return client;
  }

  it('issues client_credentials tokens to a client with a membership, and refuses a wrong secret', async () => {
    const client = await projectClient({ name: 'Lab feed', secret: 'lab-feed-secret-123', accessTokenLifetime: '2' });
    const wrong = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: client.body.id,
      client_secret: 'nope',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    const basic = `Basic ${Buffer.from(`${client.body.id}:lab-feed-secret-123`).toString('base64')}`;
    const ok = await tokenRequest({ grant_type: 'client_credentials' }, { authorization: basic });
    expect(ok.status).toBe(200);
    expect(ok.body.refresh_token).toBeUndefined();
    expect(decodeJwt(ok.body.access_token).aud).toBe(client.body.id);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: ok.body.access_token })).status).toBe(200);
    // accessTokenLifetime '2' seconds: the token expires.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const late = await http('GET', 'fhir/R4/Patient?_count=1', { token: ok.body.access_token });
    expect(issueText(late.body)).toBe('Token expired');
  });

  it("grants a client's defaultScope when its token request names no scope, and the request's own scope over it", async () => {
    const client = await projectClient({
      name: 'Patient roster feed',
      secret: 'roster-feed-secret-123',
      defaultScope: ['system/Patient.rs'],
    });
    const basic = {
      authorization: `Basic ${Buffer.from(`${client.body.id}:roster-feed-secret-123`).toString('base64')}`,
    };

    const noScope: Record<string, string>[] = [
      { grant_type: 'client_credentials' },
      { grant_type: 'client_credentials', scope: '  ' },
    ];
    for (const form of noScope) {
      const defaulted = await tokenRequest(form, basic);
      expect(defaulted.status).toBe(200);
      expect(defaulted.body.scope).toBe('system/Patient.rs');
      const access = defaulted.body.access_token as string;
      expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: access })).status).toBe(200);
      // The default narrows like a requested scope: no Observations.
      expect((await http('GET', 'fhir/R4/Observation?_count=1', { token: access })).status).toBe(403);
    }

    const own = await tokenRequest({ grant_type: 'client_credentials', scope: 'system/Observation.rs' }, basic);
    expect(own.body.scope).toBe('system/Observation.rs');
    expect((await http('GET', 'fhir/R4/Observation?_count=1', { token: own.body.access_token })).status).toBe(200);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: own.body.access_token })).status).toBe(403);
  });
});

describe('external identity providers', () => {
  let provider: TestOidcProvider;
  beforeAll(async () => {
    // Also a ClientApplication's identity provider and jwksUri: on the port the server may reach.
    provider = await startOidcProvider(inject('outboundTestPort'));
  });
  afterAll(async () => provider.close());

  it('signs in through an OIDC provider configured for the e-mail domain, with state and PKCE', async () => {
    const domain = `sso-${Date.now()}.example`;
    const owner = await registerProjectOwner();
    // The provider's person has an account here: the project owner's e-mail at the SSO domain.
    const email = `doctor@${domain}`;
    const { challenge: userChallenge } = pkcePair();
    const userLogin = await registerUser(email, 'unused password 1', userChallenge);
    await postJson('auth/newproject', { login: userLogin, projectName: 'SSO Clinic' });
    const configured = await http('POST', 'fhir/R4/DomainConfiguration', {
      body: {
        resourceType: 'DomainConfiguration',
        domain,
        identityProvider: identityProviderFor(provider),
      },
    });
    expect(configured.status).toBe(201);
    // A project admin may not configure domains (never writable under a policy-free membership either).
    const refused = await http('POST', 'fhir/R4/DomainConfiguration', {
      token: owner.tokens.access_token,
      body: { resourceType: 'DomainConfiguration', domain: 'x.example' },
    });
    expect(refused.status).toBe(403);

    provider.person = { sub: 'ext-42', email };
    const { verifier, challenge } = pkcePair();
    // The code may only come back into this app (or to an address a client registered).
    const elsewhere = await postJson('auth/method', {
      email,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      redirectUri: 'https://evil.example/signin',
    });
    expect(elsewhere.status).toBe(400);
    expect(issueExpressions(elsewhere.body)).toEqual(['redirectUri']);
    const method = await postJson('auth/method', {
      email,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      redirectUri: `${baseUrl()}signin`,
    });
    expect(method.body.method).toBe('external');
    const authorizeUrl = new URL(method.body.authorizeUrl);
    expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const atProvider = await fetch(authorizeUrl, { redirect: 'manual' });
    const callback = atProvider.headers.get('location') as string;
    expect(callback.startsWith(`${baseUrl()}auth/external`)).toBe(true);
    const atServer = await fetch(callback, { redirect: 'manual' });
    expect(atServer.status).toBe(302);
    const back = new URL(atServer.headers.get('location') as string);
    expect(back.origin + back.pathname).toBe(`${baseUrl()}signin`);
    expect(provider.lastTokenRequest?.get('code_verifier')).toBeTruthy();
    const tokens = await exchangeCode(baseUrl(), back.searchParams.get('code') as string, verifier);
    expect(decodeJwt(tokens.id_token as string).email).toBe(email);

    // The state is single-use: replaying the callback is refused.
    const replay = await fetch(callback, { redirect: 'manual' });
    expect(replay.status).toBe(400);
    expect((await postJson('auth/method', { email: 'someone@elsewhere.example' })).body.method).toBe('password');
  });

  it('exchanges an access token of the client identity provider for one of ours (token exchange)', async () => {
    const owner = await registerProjectOwner();
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'ClientApplication',
        name: 'SSO app',
        identityProvider: {
          authorizeUrl: `${provider.url}authorize`,
          tokenUrl: `${provider.url}token`,
          userInfoUrl: `${provider.url}userinfo`,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
        },
      },
    });
    provider.person = { sub: 'ext-owner', email: owner.email };
    const subjectToken = await providerAccessToken(provider);
    const exchanged = await tokenRequest({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      client_id: client.body.id,
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
    expect(exchanged.status).toBe(200);
    const me = await http<any>('GET', 'auth/me', { token: exchanged.body.access_token });
    expect(me.body.user.email).toBe(owner.email);
    const bad = await tokenRequest({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      client_id: client.body.id,
      subject_token: 'not-a-provider-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
    expect(bad.body.error).toBe('invalid_grant');
    const noClient = await tokenRequest({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
    });
    expect(noClient.body.error_description).toBe('Token exchange needs a client_id');
  });

  it('authenticates clients by a signed assertion (private_key_jwt and the jwt-bearer grant)', async () => {
    const owner = await registerProjectOwner();
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    provider.jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] };
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Signed client', jwksUri: `${provider.url}jwks` },
    });
    await http('POST', 'fhir/R4/ProjectMembership', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${owner.projectId}` },
        user: { reference: `ClientApplication/${client.body.id}` },
        profile: { reference: `ClientApplication/${client.body.id}` },
      },
    });
    const assertion = (audience: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(client.body.id)
        .setSubject(client.body.id)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('2m')
        .setJti(crypto.randomUUID())
        .sign(privateKey);
    const tokenUrl = `${baseUrl()}oauth2/token`;
    const viaAssertion = await tokenRequest({
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await assertion(tokenUrl),
    });
    expect(viaAssertion.status).toBe(200);
    expect((await http('GET', 'fhir/R4/Patient?_count=1', { token: viaAssertion.body.access_token })).status).toBe(200);
    const bearer = await tokenRequest({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: await assertion(tokenUrl),
    });
    expect(bearer.status).toBe(200);
    const wrongAudience = await tokenRequest({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: await assertion('https://elsewhere.example/token'),
    });
    expect(wrongAudience.status).toBe(401);
    expect(wrongAudience.body.error).toBe('invalid_client');
  });

  it('checks /oauth2/authorize requests before handing them to the sign-in page', async () => {
    const owner = await registerProjectOwner();
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'SMART app', redirectUri: 'http://127.0.0.1:9/callback' },
    });
    const authorize = (query: Record<string, string>) =>
      fetch(`${baseUrl()}oauth2/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
    const unregistered = await authorize({
      client_id: client.body.id,
      redirect_uri: 'http://evil.example/cb',
      response_type: 'code',
    });
    expect(unregistered.status).toBe(400);
    const noPkce = await authorize({
      client_id: client.body.id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      response_type: 'code',
      state: 's1',
    });
    const refused = new URL(noPkce.headers.get('location') as string);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('state')).toBe('s1');
    const ok = await authorize({
      client_id: client.body.id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      response_type: 'code',
      state: 's2',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      scope: 'openid patient/*.read',
      aud: `${baseUrl()}fhir/R4`,
    });
    const signInPage = new URL(ok.headers.get('location') as string);
    expect(signInPage.pathname).toBe('/oauth');
    expect(signInPage.searchParams.get('client_id')).toBe(client.body.id);
  });
});
