import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, signInWithScope, tokenRequest } from '../../tests/integration/accounts';
import { exchangeCode, pkcePair } from '../../tests/integration/signIn';
import { baseUrl } from '../../tests/integration/fhirClient';
import { totpCode } from './totp';
import { continuedFromUrl } from './loginService';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const onlyHearthSessions =
  'Only a Hearth EMR session can continue into another application: sign in on this page instead';
const outsideProject = 'This application belongs to a project you are not a member of';
const narrowedSession =
  'A session limited by SMART scopes cannot continue into another application: sign in on this page instead';
const redirectUri = 'https://continue-app.example/callback';

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8'));
}

function loginIdOf(accessToken: string): string {
  return claimsOf(accessToken).login_id as string;
}

/**
 * `POST /auth/continue`: the `/oauth` page continues a third-party app's sign-in from the Hearth
 * EMR session open in the browser. The attacks replayed: an app's own token minting a sign-in for
 * another app, an app of another project, addresses the client never registered, a signed-out
 * session, and a session that skipped the two-factor step.
 */
describe('continuing the Hearth EMR session into an app', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let clientId: string;
  let userId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Continue Clinic');
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Growth charts', redirectUri },
    });
    expect(client.status).toBe(201);
    clientId = client.body.id;
    userId = (await http<any>('GET', 'auth/me', { token: owner.tokens.access_token })).body.user.id;
  });

  const loginCount = async () =>
    (await http<any>('GET', `fhir/R4/Login?user=User/${userId}&_summary=count`)).body.total as number;

  function continueFrom(token: string | undefined, extra: Record<string, unknown> = {}) {
    const { verifier, challenge } = pkcePair();
    return postJson(
      'auth/continue',
      {
        clientId,
        redirectUri,
        scope: 'openid fhirUser user/Patient.read',
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
        ...extra,
      },
      token,
    ).then((answer) => ({ ...answer, verifier }));
  }

  it('asks for consent, then gives a code only that app can redeem, for the session’s own profile', async () => {
    const start = await continueFrom(owner.tokens.access_token);
    expect(start.status).toBe(200);
    expect(start.body.scopes).toEqual(['user/Patient.read']);
    expect(start.body.code).toBeUndefined();

    const chosen = await postJson('auth/scope', { login: start.body.login, scope: 'user/Patient.read' });
    expect(typeof chosen.body.code).toBe('string');
    const otherClient = await tokenRequest({
      grant_type: 'authorization_code',
      code: chosen.body.code,
      code_verifier: start.verifier,
      client_id: 'some-other-app',
      redirect_uri: redirectUri,
    });
    expect(otherClient.status).toBe(401);
    expect(otherClient.body.access_token).toBeUndefined();
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: chosen.body.code,
      code_verifier: start.verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.scope).toBe('openid fhirUser user/Patient.read');
    expect(tokens.body.profile).toEqual(owner.tokens.profile);
    expect(tokens.body.project).toEqual(owner.tokens.project);

    // A Login of its own, for the app, that names the session it came from.
    const login = await http<any>('GET', `fhir/R4/Login/${start.body.login}`);
    expect(login.body.client.reference).toBe(`ClientApplication/${clientId}`);
    expect(login.body.extension).toContainEqual({
      url: continuedFromUrl,
      valueReference: { reference: `Login/${loginIdOf(owner.tokens.access_token)}` },
    });
    expect(login.body.authMethod).toBe('password');
  });

  it('refuses a caller without a session, and an app’s own token, creating no sign-in', async () => {
    const before = await loginCount();
    const anonymous = await continueFrom(undefined);
    expect(anonymous.status).toBe(401);

    // The app signed in above now tries to mint a sign-in for an app with wider scopes.
    const start = await continueFrom(owner.tokens.access_token, { scope: 'openid' });
    expect(typeof start.body.code).toBe('string');
    const appTokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: start.verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    expect(appTokens.status).toBe(200);
    const countAfterApp = await loginCount();
    expect(countAfterApp).toBe(before + 1);
    const fromApp = await continueFrom(appTokens.body.access_token, { scope: 'openid user/*.*' });
    expect(fromApp.status).toBe(403);
    expect(issueText(fromApp.body)).toBe(onlyHearthSessions);
    expect(await loginCount()).toBe(countAfterApp);
  });

  it('refuses what a password sign-in refuses, naming the field, and saves nothing', async () => {
    const before = await loginCount();
    const token = owner.tokens.access_token;
    const cases: [Record<string, unknown>, string][] = [
      [{ clientId: 'no-such-client' }, 'clientId'],
      [{ clientId: undefined }, 'clientId'],
      [{ redirectUri: 'https://continue-app.example/elsewhere' }, 'redirectUri'],
      [{ redirectUri: undefined }, 'redirectUri'],
      [{ codeChallenge: undefined, codeChallengeMethod: undefined }, 'codeChallenge'],
      [{ codeChallengeMethod: 'plain' }, 'codeChallengeMethod'],
      [{ launch: '../Patient/1' }, 'launch'],
    ];
    for (const [extra, field] of cases) {
      const answer = await continueFrom(token, extra);
      expect(answer.status, JSON.stringify(extra)).toBe(400);
      expect(issueExpressions(answer.body), JSON.stringify(extra)).toEqual([field]);
    }
    expect(await loginCount()).toBe(before);
  });

  it('refuses an app registered by another project: nothing one project saves acts in another', async () => {
    const other = await registerProjectOwner('Other Project');
    const foreign = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: other.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Foreign app', redirectUri: 'https://foreign.example/cb' },
    });
    const answer = await continueFrom(owner.tokens.access_token, {
      clientId: foreign.body.id,
      redirectUri: 'https://foreign.example/cb',
    });
    expect(answer.status).toBe(403);
    expect(issueText(answer.body)).toBe(outsideProject);
  });

  it('a signed-out session cannot continue', async () => {
    const session = await registerProjectOwner('Signed-out Clinic');
    const app = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: session.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'App', redirectUri },
    });
    const loggedOut = await fetch(new URL('oauth2/logout', baseUrl()), {
      method: 'POST',
      headers: { authorization: `Bearer ${session.tokens.access_token}` },
    });
    expect(loggedOut.status).toBeLessThan(400);
    const answer = await continueFrom(session.tokens.access_token, { clientId: app.body.id });
    expect(answer.status).toBe(401);
  });

  it('a session that passed two-factor sign-in continues without it; one begun before enrolling must pass it', async () => {
    // Each person types two codes (enrolment, then one sign-in step): a code is accepted once.
    const enrolledPerson = async (name: string) => {
      const person = await registerProjectOwner(name);
      const app = await http<any>('POST', 'fhir/R4/ClientApplication', {
        token: person.tokens.access_token,
        body: { resourceType: 'ClientApplication', name: 'App', redirectUri },
      });
      const status = await http<any>('GET', 'auth/mfa/status', { token: person.tokens.access_token });
      const secret = new URL(status.body.enrollUri).searchParams.get('secret') as string;
      const enrolled = await postJson('auth/mfa/enroll', { token: totpCode(secret) }, person.tokens.access_token);
      expect(enrolled.body.enrolled).toBe(true);
      return { person, secret, clientId: app.body.id as string, nextCode: () => totpCode(secret, Date.now() + 30_000) };
    };

    // The session from registration began before enrolling: the code is asked for here.
    const first = await enrolledPerson('MFA Continue Clinic');
    const older = await continueFrom(first.person.tokens.access_token, { clientId: first.clientId });
    expect(older.status).toBe(200);
    expect(older.body).toEqual({ login: older.body.login, mfaRequired: true });
    const refused = await postJson('auth/scope', { login: older.body.login, scope: 'user/Patient.read' });
    expect(refused.status).toBe(403);
    const verified = await postJson('auth/mfa/verify', { login: older.body.login, token: first.nextCode() });
    expect(verified.body.scopes).toEqual(['user/Patient.read']);

    // A session that passed it: straight to the consent step.
    const second = await enrolledPerson('MFA Continue Clinic Two');
    const { verifier, challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email: second.person.email,
      password: second.person.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    const done = await postJson('auth/mfa/verify', { login: start.body.login, token: second.nextCode() });
    const fresh = await exchangeCode(baseUrl(), done.body.code, verifier);
    const continued = await continueFrom(fresh.access_token, { clientId: second.clientId });
    expect(continued.body.scopes).toEqual(['user/Patient.read']);
  });

  it('refuses a session that SMART scopes narrow: its holder would get back the access they left out', async () => {
    const narrow = await signInWithScope(owner.email, owner.password, 'openid user/Observation.read');
    expect((await http('GET', 'fhir/R4/Patient', { token: narrow.access_token })).status).toBe(403);
    const before = await loginCount();
    const wider = await continueFrom(narrow.access_token, { scope: 'openid user/*.*' });
    expect(wider.status).toBe(403);
    expect(issueText(wider.body)).toBe(narrowedSession);
    // Not even with the same scopes: the picker of a launch/patient app would search as the membership.
    const same = await continueFrom(narrow.access_token, { scope: 'openid user/Observation.read' });
    expect(same.status).toBe(403);
    expect(await loginCount()).toBe(before);
  });

  it('refuses a token of a client signing in as itself', async () => {
    const service = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Lab feed', secret: 'continue-lab-feed-secret-1' },
    });
    const membership = await http('POST', 'fhir/R4/ProjectMembership', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${owner.projectId}` },
        user: { reference: `ClientApplication/${service.body.id}` },
        profile: { reference: `ClientApplication/${service.body.id}` },
      },
    });
    expect(membership.status).toBe(201);
    const own = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: service.body.id,
      client_secret: 'continue-lab-feed-secret-1',
    });
    expect(own.status).toBe(200);
    const answer = await continueFrom(own.body.access_token);
    expect(answer.status).toBe(403);
    expect(issueText(answer.body)).toBe(onlyHearthSessions);
  });

  it('counts the app’s session from when the person signed in, not from the continuation', async () => {
    const sessionStart = claimsOf(owner.tokens.id_token as string).auth_time as number;
    // A second boundary between the two, so that a fresh clock would show.
    while (Math.floor(Date.now() / 1000) <= sessionStart) await new Promise((resolve) => setTimeout(resolve, 100));
    const start = await continueFrom(owner.tokens.access_token, { scope: 'openid offline_access' });
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: start.verifier,
      client_id: clientId,
      redirect_uri: redirectUri,
    });
    expect(tokens.status).toBe(200);
    expect(claimsOf(tokens.body.id_token as string).auth_time).toBe(sessionStart);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token as string,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(claimsOf(refreshed.body.id_token as string).auth_time).toBe(sessionStart);
  });
});

/**
 * A continued sign-in's id is the key to its pending steps (scopes, the patient picker). It was
 * saved in the session's project, where the project's admins and any member whose policy grants
 * `*` could search it: a member whose policy shows only some patients listed every patient through
 * another person's picker, and could choose the patient of that person's app.
 */
describe('a continued sign-in stays out of its project’s reach', () => {
  it('no member finds it, so none can list patients as its person or choose for them', async () => {
    const owner = await registerProjectOwner('Continue Picker Clinic');
    const app = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Standalone app', redirectUri },
    });
    // Letters only: the picker reads a word with a digit as a record number.
    const letters = Date.now()
      .toString()
      .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] as string);
    const family = (name: string) => `${name}${letters}`;
    const shown = family('Shownfamily');
    const hidden = family('Hiddenfamily');
    const hiddenId: string[] = [];
    for (const name of [shown, hidden]) {
      const patient = await http<any>('POST', 'fhir/R4/Patient', {
        token: owner.tokens.access_token,
        body: { resourceType: 'Patient', name: [{ given: ['Pat'], family: name }] },
      });
      if (name === hidden) hiddenId.push(patient.body.id);
    }
    // A member who sees one family's patients, and everything else of the project.
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'AccessPolicy',
        name: 'One family, and the rest',
        resource: [{ resourceType: 'Patient', criteria: `Patient?family=${shown}` }, { resourceType: '*' }],
      },
    });
    const email = `wildcard-${Date.now()}@test.example`;
    const invited = await http<any>('POST', `admin/projects/${owner.projectId}/invite`, {
      token: owner.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: {
        resourceType: 'Practitioner',
        firstName: 'Wil',
        lastName: 'Dcard',
        email,
        password: 'wildcard password 1',
        sendEmail: false,
        accessPolicy: { reference: `AccessPolicy/${policy.body.id}` },
      },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const member = await signInWithScope(email, 'wildcard password 1', 'openid');
    const ownSearch = await http<any>('GET', `fhir/R4/Patient?name=${hidden}`, { token: member.access_token });
    expect(ownSearch.body.entry ?? []).toEqual([]);

    // The admin continues into a standalone-launch app and reaches the patient picker.
    const { challenge } = pkcePair();
    const start = await postJson(
      'auth/continue',
      {
        clientId: app.body.id,
        redirectUri,
        scope: 'openid launch/patient patient/*.read',
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      },
      owner.tokens.access_token,
    );
    expect(start.body.patientChoice).toBe(true);

    // The member looks for sign-ins in progress, and tries each on the picker and the consent step.
    const logins = await http<any>('GET', 'fhir/R4/Login?_count=100', { token: member.access_token });
    const found: string[] = (logins.body.entry ?? []).map((entry: any) => entry.resource.id);
    expect(found).not.toContain(start.body.login);
    for (const login of found) {
      const listed = await http<any>('GET', `auth/login/${login}/patients?text=${hidden}`, { token: null });
      expect(listed.body.patients ?? []).toEqual([]);
    }
    // The project's admin does not read it either (a project's admins see no Login records).
    expect((await http('GET', `fhir/R4/Login/${start.body.login}`, { token: owner.tokens.access_token })).status).toBe(
      404,
    );
    // The flow itself goes on: its own page lists the admin's patients.
    const own = await http<any>('GET', `auth/login/${start.body.login}/patients?text=${hidden}`, { token: null });
    expect(own.body.patients.map((patient: any) => patient.id)).toEqual(hiddenId);
  });
});
