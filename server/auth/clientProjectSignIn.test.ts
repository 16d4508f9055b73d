import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, registerUser, tokenRequest } from '../../tests/integration/accounts';
import { identityProviderFor, startOidcProvider, type TestOidcProvider } from '../../tests/integration/oidcProvider';
import { pkcePair } from '../../tests/integration/signIn';
import { confirmAddressByReset } from './addressOwnership.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const refusal = 'This application belongs to a project you are not a member of';

/**
 * Found while fixing issue 14: project B's admin registers an app and sends its sign-in link to a
 * clinician of project A. The sign-in page is the real one, so the clinician signs in, and the app
 * (holding the PKCE verifier it made itself) received a token for the clinician's profile in A.
 * An app's sign-in is confined to the project that registered it.
 */
describe("a project's app signs people in to that project only", () => {
  let attacker: Awaited<ReturnType<typeof registerProjectOwner>>;
  let victim: Awaited<ReturnType<typeof registerProjectOwner>>;
  let clientId: string;
  let victimMembershipInA: string;

  beforeAll(async () => {
    victim = await registerProjectOwner('Clinic A');
    attacker = await registerProjectOwner('Project B');
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: attacker.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Free app', redirectUri: 'https://attacker.example/cb' },
    });
    clientId = client.body.id;
    victimMembershipInA = (await http<any>('GET', 'auth/me', { token: victim.tokens.access_token })).body.membership.id;
    // The clinician has proved their address, so project B's invitation below adds them at once
    // (an unproved one would wait for the address owner: addressOwnership.test.ts).
    await confirmAddressByReset(victim.email, victim.password);
  });

  const signInThroughApp = (extra: Record<string, unknown> = {}) => {
    const { verifier, challenge } = pkcePair();
    return postJson('auth/login', {
      email: victim.email,
      password: victim.password,
      clientId,
      redirectUri: 'https://attacker.example/cb',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      ...extra,
    }).then((answer) => ({ ...answer, verifier }));
  };

  it('refuses a person with no profile in the project of the app: no code, no project to create', async () => {
    const answer = await signInThroughApp();
    expect(answer.status).toBe(403);
    expect(issueText(answer.body)).toBe(refusal);
    expect(answer.body.code).toBeUndefined();
    const named = await signInThroughApp({ projectId: victim.projectId });
    expect(named.status).toBe(403);
  });

  it('a person in both projects gets only their profile in the app project, whatever they choose', async () => {
    const invited = await http<any>('POST', `admin/projects/${attacker.projectId}/invite`, {
      token: attacker.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: { resourceType: 'Practitioner', firstName: 'Vic', lastName: 'Tim', email: victim.email, sendEmail: false },
    });
    expect(invited.status).toBe(200);
    const start = await signInThroughApp({ scope: 'openid user/*.read' });
    expect(start.status).toBe(200);
    expect(start.body.scopes).toEqual(['user/*.read']);
    const login = start.body.login as string;

    const status = await http<any>('GET', `auth/login/${login}`, { token: null });
    expect(status.body.memberships.map((m: any) => m.project.reference)).toEqual([`Project/${attacker.projectId}`]);
    const switched = await postJson('auth/profile', { login, profile: victimMembershipInA });
    expect(switched.status).toBe(400);
    expect(issueExpressions(switched.body)).toEqual(['profile']);
    const created = await postJson('auth/newproject', { login, projectName: 'Via the app' });
    expect(created.status).toBe(403);
    expect(issueText(created.body)).toBe(refusal);

    // user/*.read: with SMART scopes enforced, a patient/ scope without a launch patient grants nothing
    // (403 before any project check); a user/ scope lets the last check prove the project isolation.
    const scoped = await postJson('auth/scope', { login, scope: 'user/*.read' });
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: scoped.body.code,
      code_verifier: start.verifier,
      client_id: clientId,
      redirect_uri: 'https://attacker.example/cb',
    });
    expect(tokens.status).toBe(200);
    const me = await http<any>('GET', 'auth/me', { token: tokens.body.access_token });
    expect(me.body.project.id).toBe(attacker.projectId);
    expect((await http('GET', `fhir/R4/Project/${victim.projectId}`, { token: tokens.body.access_token })).status).toBe(
      404,
    );
  });

  describe('through an external identity provider', () => {
    let provider: TestOidcProvider;
    beforeAll(async () => {
      provider = await startOidcProvider();
    });
    afterAll(async () => provider.close());

    it('sends the refusal back to the page that started the sign-in, with no code', async () => {
      const domain = `sso-app-${Date.now()}.example`;
      const email = `doctor@${domain}`;
      const { challenge: own } = pkcePair();
      const userLogin = await registerUser(email, 'unused password 1', own);
      expect((await postJson('auth/newproject', { login: userLogin, projectName: 'SSO Clinic A' })).status).toBe(200);
      const configured = await http('POST', 'fhir/R4/DomainConfiguration', {
        body: { resourceType: 'DomainConfiguration', domain, identityProvider: identityProviderFor(provider) },
      });
      expect(configured.status).toBe(201);
      provider.person = { sub: `ext-${Date.now()}`, email };
      const method = await postJson('auth/method', {
        email,
        clientId,
        clientRedirectUri: 'https://attacker.example/cb',
        redirectUri: `${baseUrl()}oauth`,
        codeChallenge: pkcePair().challenge,
        codeChallengeMethod: 'S256',
      });
      expect(method.body.method).toBe('external');
      const atProvider = await fetch(method.body.authorizeUrl, { redirect: 'manual' });
      const atServer = await fetch(atProvider.headers.get('location') as string, { redirect: 'manual' });
      expect(atServer.status).toBe(302);
      const back = new URL(atServer.headers.get('location') as string);
      expect(back.origin + back.pathname).toBe(`${baseUrl()}oauth`);
      expect(back.searchParams.get('error')).toBe(refusal);
      expect(back.searchParams.get('code')).toBeNull();
    });
  });
});
