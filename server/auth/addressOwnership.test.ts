import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';
import {
  loginStart,
  postJson,
  registerProjectOwner,
  registerUser,
  signInWithScope,
  tokenRequest,
  uniqueEmail,
} from '../../tests/integration/accounts';
import { exchangeCode, pkcePair, signIn } from '../../tests/integration/signIn';
import {
  identityProviderFor,
  providerAccessToken,
  startOidcProvider,
  type TestOidcProvider,
} from '../../tests/integration/oidcProvider';
import { clinicWithPatientRegistration } from '../../tests/integration/patientAccounts';
import { completeLatestLink, confirmAddressByReset, outboxTo, userByEmail } from './addressOwnership.test-support';
import { awaitingOwnerMessage } from './membershipState';
import { awaitingAddressOwnerUrl as awaitingOwnerUrl } from '../../data-provider/rules';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

/**
 * Account pre-hijacking (addressOwnership.ts, membershipState.ts): an account whose address nobody
 * proved — registered by someone who does not own it, or given a password by an inviter — must not
 * hand a later project's invitation to whoever knows that password.
 */

type Owner = Awaited<ReturnType<typeof registerProjectOwner>>;

const json = { 'content-type': 'application/json' };

const inviteAs = (token: string | undefined, projectId: string, body: Record<string, unknown>) =>
  http<any>('POST', `admin/projects/${projectId}/invite`, { token, body, headers: json });

/** Every way in with the password that must stay out of `projectId`: each refused, none with a code. */
async function expectKeptOut(email: string, password: string, projectId: string) {
  const named = await loginStart(email, password, { projectId });
  expect(named.status).toBe(403);
  expect(issueText(named.body)).toBe(awaitingOwnerMessage);
  expect(named.body.code).toBeUndefined();
  // The whole sign-in (profile list included) ends anywhere but in the project, or nowhere.
  const tokens = await signIn(baseUrl(), email, password, { project: projectId }).catch(() => undefined);
  expect(tokens?.project.reference).not.toBe(`Project/${projectId}`);
}

const personBody = (email: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Practitioner',
  firstName: 'Vic',
  lastName: 'Tim',
  email,
  ...extra,
});

describe('account pre-hijacking: an invitation to an account whose address nobody proved', () => {
  let attackerClinic: Owner;
  let victimClinic: Owner;

  beforeAll(async () => {
    attackerClinic = await registerProjectOwner('Prehijack Attacker Clinic');
    victimClinic = await registerProjectOwner('Prehijack Victim Clinic');
  });

  it('replay: A invites with a chosen password and removes the member; B invites; the password does not give B, the e-mailed link does', async () => {
    const victim = uniqueEmail('victim');
    const attackerPassword = 'attacker chose this 1';
    // Project A's admin makes the account with a password of their choice (allowed for their staff)…
    const made = await inviteAs(attackerClinic.tokens.access_token, attackerClinic.projectId, {
      ...personBody(victim),
      password: attackerPassword,
      sendEmail: false,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // …which works in A at once (rule 3), but proves nothing about the address.
    expect((await signIn(baseUrl(), victim, attackerPassword)).project.reference).toBe(
      `Project/${attackerClinic.projectId}`,
    );
    expect((await userByEmail(victim)).emailVerified).toBe(false);
    // …and removes the membership, so nothing points at A any more.
    const removed = await http<any>('DELETE', `admin/projects/${attackerClinic.projectId}/members/${made.body.id}`, {
      token: attackerClinic.tokens.access_token,
    });
    expect(removed.status).toBe(200);

    // Project B, legitimately, invites the same address: the account is reused, the membership waits.
    const invited = await inviteAs(victimClinic.tokens.access_token, victimClinic.projectId, personBody(victim));
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect(invited.body.active).toBe(false);
    expect(invited.body.extension?.[0]?.url).toBe(awaitingOwnerUrl);
    const [message] = outboxTo(victim);
    expect(message.subject).toBe('You are invited to Prehijack Victim Clinic on Hearth EMR');
    expect(message.text).toContain('setpassword/');
    expect(message.text).toContain('replaces the account');

    // The attacker's password reaches nothing in B: no code, no token, no profile list.
    await expectKeptOut(victim, attackerPassword, victimClinic.projectId);
    const unnamed = await loginStart(victim, attackerPassword);
    expect(unnamed.status).toBe(403);
    expect(issueText(unnamed.body)).toBe(awaitingOwnerMessage);
    // B's admin list says why the member is not active yet.
    const detail = await http<any>('GET', `admin/projects/${victimClinic.projectId}`, {
      token: victimClinic.tokens.access_token,
    });
    expect(detail.body.members.find((m: any) => m.id === invited.body.id)).toMatchObject({
      active: false,
      awaitingAddressOwner: true,
    });
    // Inviting again does not make a second membership (nor a second way in).
    const again = await inviteAs(victimClinic.tokens.access_token, victimClinic.projectId, personBody(victim));
    expect(again.status).toBe(409);
    expect(issueText(again.body)).toContain('already invited');

    // The address owner opens the e-mailed link.
    const set = await completeLatestLink(victim, 'the owner chose this 1');
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await loginStart(victim, attackerPassword)).status).toBe(400);
    const owner = await signIn(baseUrl(), victim, 'the owner chose this 1');
    expect(owner.project.reference).toBe(`Project/${victimClinic.projectId}`);
    const me = await http<any>('GET', 'auth/me', { token: owner.access_token });
    expect(me.body.membership.id).toBe(invited.body.id);
    expect(me.body.membership.active).toBe(true);
    expect(me.body.membership.extension).toBeUndefined();
    expect((await userByEmail(victim)).emailVerified).toBe(true);
  });

  it('open registration: the registrant keeps their own project but not the invitation, and loses the account to the owner', async () => {
    const victim = uniqueEmail('registered');
    const attackerPassword = 'registered by someone else 1';
    // Anyone may register an address they do not own, with a password of their choice…
    const { verifier, challenge } = pkcePair();
    const login = await registerUser(victim, attackerPassword, challenge);
    const own = await postJson('auth/newproject', { login, projectName: 'Registrant Own Project' });
    const attackerSession = await exchangeCode(baseUrl(), own.body.code, verifier);
    expect((await userByEmail(victim)).emailVerified).toBe(false);

    const invited = await inviteAs(victimClinic.tokens.access_token, victimClinic.projectId, personBody(victim));
    expect(invited.status).toBe(200);
    expect(invited.body.active).toBe(false);

    await expectKeptOut(victim, attackerPassword, victimClinic.projectId);
    // Without a project named, the password reaches the registrant's own project only.
    const unnamed = await loginStart(victim, attackerPassword, { scope: 'openid profile user/Patient.read' });
    expect(unnamed.status).toBe(200);
    const status = await http<any>('GET', `auth/login/${unnamed.body.login}`, { token: null });
    expect(status.body.memberships.map((m: any) => m.project.reference)).toEqual([
      `Project/${attackerSession.project.reference.split('/')[1]}`,
    ]);
    // Choosing the waiting membership by its id (profile switch) is refused with the reason.
    const chosen = await postJson('auth/profile', { login: unnamed.body.login, profile: invited.body.id });
    expect(chosen.status).toBe(403);
    expect(issueText(chosen.body)).toBe(awaitingOwnerMessage);
    // A session already open continues into no app of B either.
    const appOfB = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: victimClinic.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'B app', redirectUri: 'https://b.example/cb' },
    });
    const throughApp = await loginStart(victim, attackerPassword, {
      clientId: appOfB.body.id,
      redirectUri: 'https://b.example/cb',
    });
    expect(throughApp.status).toBe(403);
    expect(issueText(throughApp.body)).toBe(awaitingOwnerMessage);
    const continued = await postJson(
      'auth/continue',
      {
        clientId: appOfB.body.id,
        redirectUri: 'https://b.example/cb',
        codeChallenge: pkcePair().challenge,
        codeChallengeMethod: 'S256',
      },
      attackerSession.access_token,
    );
    expect(continued.status).toBe(403);
    expect(continued.body.code).toBeUndefined();

    // The owner answers the invitation's e-mail: the registrant's session ends, their password goes.
    expect((await completeLatestLink(victim, 'the real owner 1')).status).toBe(200);
    expect((await http('GET', 'auth/me', { token: attackerSession.access_token })).status).toBe(401);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: attackerSession.refresh_token as string,
    });
    expect(refreshed.status).toBe(400);
    expect((await loginStart(victim, attackerPassword)).status).toBe(400);
    const owner = await signIn(baseUrl(), victim, 'the real owner 1', { project: victimClinic.projectId });
    expect(owner.project.reference).toBe(`Project/${victimClinic.projectId}`);
  });

  it("no admin's edit switches a waiting membership on: members route, FHIR PUT and PATCH, nor the extension removed", async () => {
    const victim = uniqueEmail('edited');
    const password = 'someone else chose 1';
    await registerUser(victim, password, pkcePair().challenge);
    const invited = await inviteAs(victimClinic.tokens.access_token, victimClinic.projectId, {
      ...personBody(victim),
      sendEmail: false,
    });
    expect(invited.status).toBe(200);
    const token = victimClinic.tokens.access_token;
    const path = `admin/projects/${victimClinic.projectId}/members/${invited.body.id}`;
    const stored = (await http<any>('GET', path, { token })).body;

    const activated = await http<any>('POST', path, { token, body: { ...stored, active: true } });
    expect(activated.status).toBe(403);
    expect(issueText(activated.body)).toContain(awaitingOwnerMessage);
    const stripped = await http<any>('POST', path, { token, body: { ...stored, extension: undefined, active: true } });
    expect(stripped.status).toBe(403);
    // An edit that leaves `active` out keeps the membership waiting (and still applies the rest).
    const { active: _active, ...withoutActive } = stored;
    const edited = await http<any>('POST', path, { token, body: { ...withoutActive, admin: true } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ active: false, admin: true });

    const fhirPath = `fhir/R4/ProjectMembership/${invited.body.id}`;
    const current = (await http<any>('GET', fhirPath, { token })).body;
    for (const body of [
      { ...current, active: true },
      { ...current, active: true, extension: undefined },
      { ...current, extension: undefined },
    ]) {
      expect((await http<any>('PUT', fhirPath, { token, body })).status, JSON.stringify(body)).toBe(403);
    }
    const patched = await http<any>('PATCH', fhirPath, {
      token,
      headers: { 'content-type': 'application/json-patch+json' },
      body: [
        { op: 'replace', path: '/active', value: true },
        { op: 'remove', path: '/extension' },
      ],
    });
    expect(patched.status).toBe(403);
    // Nor may an admin mark another membership as waiting (the server sets it, and ends it).
    const other = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token,
      body: { resourceType: 'ClientApplication', name: 'Feed' },
    });
    const clientRef = { reference: `ClientApplication/${other.body.id}` };
    const marked = await http<any>('POST', 'fhir/R4/ProjectMembership', {
      token,
      body: {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${victimClinic.projectId}` },
        user: clientRef,
        profile: clientRef,
        extension: current.extension,
      },
    });
    expect(marked.status).toBe(403);

    // A super admin's raw write that switches `active` on leaves the waiting mark: still no way in.
    const forced = await http<any>('PUT', fhirPath, { body: { ...current, active: true } });
    expect(forced.status).toBe(200);
    await expectKeptOut(victim, password, victimClinic.projectId);

    // Without the e-mail (sendEmail: false), "Forgot password" is the owner's way in.
    await confirmAddressByReset(victim, 'owner by reset 1');
    const owner = await signIn(baseUrl(), victim, 'owner by reset 1', { project: victimClinic.projectId });
    expect(owner.project.reference).toBe(`Project/${victimClinic.projectId}`);
  });

  it('keeps the waiting membership from the token exchange of a project app', async () => {
    // The app's identity provider, where the server may reach it (a listed loopback port).
    const provider = await startOidcProvider(inject('outboundTestPort'));
    try {
      const victim = uniqueEmail('exchanged');
      await registerUser(victim, 'someone else chose 2', pkcePair().challenge);
      const invited = await inviteAs(victimClinic.tokens.access_token, victimClinic.projectId, {
        ...personBody(victim),
        sendEmail: false,
      });
      expect(invited.body.active).toBe(false);
      const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
        token: victimClinic.tokens.access_token,
        body: {
          resourceType: 'ClientApplication',
          name: 'B SSO app',
          identityProvider: {
            authorizeUrl: `${provider.url}authorize`,
            tokenUrl: `${provider.url}token`,
            userInfoUrl: `${provider.url}userinfo`,
            clientId: provider.clientId,
            clientSecret: provider.clientSecret,
          },
        },
      });
      provider.person = { sub: 'exchange-victim', email: victim };
      const exchanged = await tokenRequest({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        client_id: client.body.id,
        subject_token: await providerAccessToken(provider),
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      });
      expect(exchanged.status).toBe(400);
      expect(exchanged.body.error).toBe('invalid_grant');
      expect(exchanged.body.access_token).toBeUndefined();
    } finally {
      await provider.close();
    }
  });

  it('refuses a patient self-registration next to a waiting invitation, with the answer any membership gets', async () => {
    const clinic = await clinicWithPatientRegistration('Prehijack Patient Clinic');
    const victim = uniqueEmail('patient');
    const password = 'someone else chose 3';
    const { challenge } = pkcePair();
    const login = await registerUser(victim, password, challenge);
    const invited = await inviteAs(clinic.tokens.access_token, clinic.projectId, {
      ...personBody(victim, { resourceType: 'Patient' }),
      sendEmail: false,
    });
    expect(invited.body.active).toBe(false);
    const registered = await postJson('auth/newpatient', { login, projectId: clinic.projectId });
    expect(registered.status).toBe(400);
    expect(issueText(registered.body)).toBe('Already registered in this project');
    const memberships = await http<any>(
      'GET',
      `fhir/R4/ProjectMembership?user=${encodeURIComponent(invited.body.user.reference)}&project=Project/${clinic.projectId}`,
    );
    expect(memberships.body.entry).toHaveLength(1);
    // Registering the address again says only what it always said.
    const twice = await postJson('auth/newuser', {
      firstName: 'Again',
      lastName: 'Again',
      email: victim,
      password: 'another password 1',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(issueText(twice.body)).toBe('Email already registered');
  });
});

describe('accounts whose address is proved', () => {
  let first: Owner;
  let second: Owner;

  beforeAll(async () => {
    first = await registerProjectOwner('Verified First Clinic');
    second = await registerProjectOwner('Verified Second Clinic');
  });

  it('an account made by an invitation link is verified, and a second project’s invitation works at once', async () => {
    const email = uniqueEmail('linked');
    expect((await inviteAs(first.tokens.access_token, first.projectId, personBody(email))).status).toBe(200);
    expect((await userByEmail(email)).emailVerified).toBe(false);
    expect((await completeLatestLink(email, 'linked password 1')).status).toBe(200);
    expect((await userByEmail(email)).emailVerified).toBe(true);

    const invited = await inviteAs(second.tokens.access_token, second.projectId, personBody(email));
    expect(invited.status).toBe(200);
    expect(invited.body.active).not.toBe(false);
    expect(invited.body.extension).toBeUndefined();
    const message = outboxTo(email).pop();
    expect(message?.subject).toBe('You were added to Verified Second Clinic on Hearth EMR');
    expect(message?.text).not.toContain('setpassword');
    const tokens = await signIn(baseUrl(), email, 'linked password 1', { project: second.projectId });
    expect(tokens.project.reference).toBe(`Project/${second.projectId}`);
  });

  it('a self-registered account proved through "Forgot password" is invited at once too', async () => {
    const email = uniqueEmail('reset');
    await registerUser(email, 'my own password 1', pkcePair().challenge);
    await confirmAddressByReset(email, 'my own password 2');
    const invited = await inviteAs(second.tokens.access_token, second.projectId, {
      ...personBody(email),
      sendEmail: false,
    });
    expect(invited.body.active).not.toBe(false);
    expect((await signIn(baseUrl(), email, 'my own password 2')).project.reference).toBe(`Project/${second.projectId}`);
  });

  it('accounts the server or a super admin makes are verified: invited at once', async () => {
    // The first super admin (like the demo accounts) is stored verified.
    const withEmail = await signInWithScope('admin@example.com', inject('adminPassword'), 'openid email');
    const userinfo = await http<any>('GET', 'oauth2/userinfo', { token: withEmail.access_token });
    expect(userinfo.body).toMatchObject({ email: 'admin@example.com', email_verified: true });
    // Super admin tooling: a User a super admin writes with emailVerified counts.
    const email = uniqueEmail('tooling');
    const made = await http<any>('POST', 'fhir/R4/User', {
      body: { resourceType: 'User', email, firstName: 'Tool', lastName: 'Made', emailVerified: true },
    });
    expect(made.status).toBe(201);
    const invited = await inviteAs(second.tokens.access_token, second.projectId, {
      ...personBody(email),
      sendEmail: false,
    });
    expect(invited.status).toBe(200);
    expect(invited.body.active).not.toBe(false);
  });

  it('accounts stored before the rule: verified only when one of their links was completed', async () => {
    // Stored without the field, as every invited or registered account was before this change.
    const legacy = async (email: string) => {
      await registerUser(email, 'legacy password 1', pkcePair().challenge);
      const user = await userByEmail(email);
      const { emailVerified: _dropped, ...rest } = user;
      expect((await http('PUT', `fhir/R4/User/${user.id}`, { body: rest })).status).toBe(200);
      expect((await userByEmail(email)).emailVerified).toBeUndefined();
    };
    const never = uniqueEmail('legacy-never');
    await legacy(never);
    const waiting = await inviteAs(second.tokens.access_token, second.projectId, {
      ...personBody(never),
      sendEmail: false,
    });
    expect(waiting.body.active).toBe(false);

    const proved = uniqueEmail('legacy-proved');
    await legacy(proved);
    // A reset completed back then: the used request is the record of it (the field is dropped again).
    await confirmAddressByReset(proved, 'legacy password 2');
    const user = await userByEmail(proved);
    const { emailVerified: _again, ...rest } = user;
    await http('PUT', `fhir/R4/User/${user.id}`, { body: rest });
    const direct = await inviteAs(second.tokens.access_token, second.projectId, {
      ...personBody(proved),
      sendEmail: false,
    });
    expect(direct.body.active).not.toBe(false);
  });
});

describe('accounts are written by the server only', () => {
  it('a project admin (or a member without a policy) cannot write a User or a password link through the FHIR API', async () => {
    const owner = await registerProjectOwner('Forger Clinic');
    const token = owner.tokens.access_token;
    const victim = uniqueEmail('forged');
    const user = await http<any>('POST', 'fhir/R4/User', {
      token,
      body: { resourceType: 'User', email: victim, firstName: 'F', lastName: 'F', emailVerified: true },
    });
    expect(user.status).toBe(403);
    const batch = await http<any>('POST', 'fhir/R4', {
      token,
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: { resourceType: 'User', email: victim, firstName: 'F', lastName: 'F' },
            request: { method: 'POST', url: 'User' },
          },
        ],
      },
    });
    expect(batch.status).toBe(403);
    const request = await http<any>('POST', 'fhir/R4/UserSecurityRequest', {
      token,
      body: { resourceType: 'UserSecurityRequest', type: 'reset', secret: 'known' },
    });
    expect(request.status).toBe(403);
    const users = await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(victim)}`);
    expect(users.body.entry ?? []).toHaveLength(0);
  });
});

describe('external identity providers and the address', () => {
  let provider: TestOidcProvider;
  let domain: string;
  let clinic: Owner;

  beforeAll(async () => {
    provider = await startOidcProvider();
    domain = `owner-sso-${Date.now()}.example`;
    clinic = await registerProjectOwner('SSO Invite Clinic');
    const configured = await http('POST', 'fhir/R4/DomainConfiguration', {
      body: { resourceType: 'DomainConfiguration', domain, identityProvider: identityProviderFor(provider) },
    });
    expect(configured.status).toBe(201);
  });
  afterAll(async () => provider.close());

  /** The provider's round trip for `email`: where the server sends the browser back. */
  async function externalSignIn(email: string, claims: Record<string, unknown>): Promise<URL> {
    provider.person = { sub: `sub-${email}`, email, ...claims } as TestOidcProvider['person'];
    const method = await postJson('auth/method', {
      email,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
      redirectUri: `${baseUrl()}signin`,
    });
    expect(method.body.method).toBe('external');
    const atProvider = await fetch(method.body.authorizeUrl, { redirect: 'manual' });
    const atServer = await fetch(atProvider.headers.get('location') as string, { redirect: 'manual' });
    expect(atServer.status).toBe(302);
    return new URL(atServer.headers.get('location') as string);
  }

  it('links by e-mail only for its own domain and never against an explicit email_verified: false', async () => {
    const email = `doctor-${Date.now()}@${domain}`;
    await registerUser(email, 'unused password 1', pkcePair().challenge);
    const unverified = await externalSignIn(email, { email_verified: false });
    expect(unverified.searchParams.get('error')).toBe('The identity provider has not verified this e-mail address');
    expect(unverified.searchParams.get('login')).toBeNull();

    // The domain's provider answers with someone else's address (another domain): refused.
    const elsewhere = uniqueEmail('elsewhere');
    await registerUser(elsewhere, 'unused password 2', pkcePair().challenge);
    provider.person = { sub: 'sub-elsewhere', email: elsewhere };
    const method = await postJson('auth/method', {
      email,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
      redirectUri: `${baseUrl()}signin`,
    });
    const atProvider = await fetch(method.body.authorizeUrl, { redirect: 'manual' });
    const atServer = await fetch(atProvider.headers.get('location') as string, { redirect: 'manual' });
    const back = new URL(atServer.headers.get('location') as string);
    expect(back.searchParams.get('error')).toBe(`The identity provider answered for an address outside ${domain}`);
    expect(back.searchParams.get('login')).toBeNull();
  });

  it('a verified address proves the owner of an account without a password; one with a password stays unverified', async () => {
    // Invited without a password (the link went to the address), then invited elsewhere: waiting.
    const email = `nurse-${Date.now()}@${domain}`;
    const firstInvite = await inviteAs(clinic.tokens.access_token, clinic.projectId, {
      ...personBody(email),
      sendEmail: false,
    });
    expect(firstInvite.body.active).not.toBe(false);
    const other = await registerProjectOwner('SSO Second Clinic');
    const waiting = await inviteAs(other.tokens.access_token, other.projectId, {
      ...personBody(email),
      sendEmail: false,
    });
    expect(waiting.body.active).toBe(false);

    const back = await externalSignIn(email, { email_verified: true });
    expect(back.searchParams.get('error')).toBeNull();
    expect(back.searchParams.get('login')).toBeTruthy();
    expect((await userByEmail(email)).emailVerified).toBe(true);
    const stored = await http<any>('GET', `fhir/R4/ProjectMembership/${waiting.body.id}`);
    expect(stored.body.active).toBe(true);
    expect(stored.body.extension).toBeUndefined();

    // An account with a password (perhaps not the owner's) is not made verified by the provider.
    const withPassword = `clerk-${Date.now()}@${domain}`;
    await registerUser(withPassword, 'chosen by whoever 1', pkcePair().challenge);
    const signedIn = await externalSignIn(withPassword, { email_verified: true });
    expect(signedIn.searchParams.get('error')).toBeNull();
    expect((await userByEmail(withPassword)).emailVerified).toBe(false);
  });
});
