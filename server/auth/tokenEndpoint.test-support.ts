import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import {
  loginStart,
  postJson,
  registerProjectOwner,
  tokenRequest,
  uniqueEmail,
} from '../../tests/integration/accounts';
import { pkcePair, type Tokens } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

/** Sign-ins as a third-party app makes them, and accounts to make them with (token endpoint tests). */

export const appRedirectUri = 'http://localhost:9999/cb';
export const smartLaunchScope = 'openid fhirUser launch patient/*.read';

export type Owner = Awaited<ReturnType<typeof registerProjectOwner>>;
export interface Account {
  email: string;
  password: string;
}

/** A public ClientApplication of the owner's project (no secret), registered for `appRedirectUri`. */
export async function registerApp(owner: Owner, fields: Record<string, unknown> = {}): Promise<string> {
  const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
    token: owner.tokens.access_token,
    body: {
      resourceType: 'ClientApplication',
      name: `App ${randomUUID().slice(0, 6)}`,
      redirectUri: appRedirectUri,
      ...fields,
    },
  });
  expect(client.status).toBe(201);
  return client.body.id as string;
}

/** A person the owner invites into the project with a password: a patient, or a colleague. */
export async function invitedMember(owner: Owner, resourceType: 'Patient' | 'Practitioner'): Promise<Account> {
  const email = uniqueEmail(resourceType.toLowerCase());
  const password = `member-${randomUUID()}`;
  const invited = await http<any>('POST', `admin/projects/${owner.projectId}/invite`, {
    token: owner.tokens.access_token,
    headers: { 'content-type': 'application/json' },
    body: { resourceType, firstName: 'Invited', lastName: resourceType, email, password, sendEmail: false },
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(200);
  return { email, password };
}

/**
 * The `/oauth` page's calls for an app's sign-in (auth/login with the app's redirect URI, then the
 * consent step when scopes ask for it): answers the code the app receives and its PKCE verifier.
 */
export async function appCode(
  account: Account,
  app: { clientId: string; scope?: string; launch?: string },
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkcePair();
  const scope = app.scope ?? 'openid profile';
  let step = await postJson('auth/login', {
    email: account.email,
    password: account.password,
    clientId: app.clientId,
    redirectUri: appRedirectUri,
    scope,
    ...(app.launch ? { launch: app.launch } : {}),
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
  });
  if (step.body.scopes) step = await postJson('auth/scope', { login: step.body.login, scope });
  expect(typeof step.body.code, JSON.stringify(step.body)).toBe('string');
  return { code: step.body.code as string, verifier };
}

/** A code of this web app's own sign-in (no client, no redirect URI). */
export async function webAppCode(account: Account): Promise<{ code: string; verifier: string }> {
  const start = await loginStart(account.email, account.password);
  expect(typeof start.body.code, JSON.stringify(start.body)).toBe('string');
  return { code: start.body.code as string, verifier: start.verifier };
}

/** `POST oauth2/token` for the code grant, with whatever else the test sends. */
export function redeem(issued: { code: string; verifier: string }, extra: Record<string, string> = {}) {
  return tokenRequest({
    grant_type: 'authorization_code',
    code: issued.code,
    code_verifier: issued.verifier,
    ...extra,
  });
}

/**
 * An app's own redemption of its code: its client id and the redirect URI the authorization request
 * named (RFC 6749 §4.1.3); the tokens, or the test fails with the refusal.
 */
export async function appTokens(
  issued: { code: string; verifier: string },
  app: { clientId: string; redirectUri: string },
): Promise<Tokens> {
  const answer = await redeem(issued, { client_id: app.clientId, redirect_uri: app.redirectUri });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as unknown as Tokens;
}

export function refresh(refreshToken: string, extra: Record<string, string> = {}) {
  return tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken, ...extra });
}

/** The status of a FHIR call with the access token (200 while its session lasts, 401 once ended). */
export async function tokenWorks(accessToken: string): Promise<number> {
  return (await http('GET', 'fhir/R4/Patient?_count=1', { token: accessToken })).status;
}

/** A patient and an encounter of the owner's project, and an EHR launch about them saved by `token`. */
export async function patientAndEncounter(owner: Owner): Promise<{ patient: string; encounter: string }> {
  const token = owner.tokens.access_token;
  const patient = await http<any>('POST', 'fhir/R4/Patient', {
    token,
    body: { resourceType: 'Patient', name: [{ family: 'Launchcontext' }] },
  });
  const encounter = await http<any>('POST', 'fhir/R4/Encounter', {
    token,
    body: {
      resourceType: 'Encounter',
      status: 'in-progress',
      class: { code: 'AMB' },
      subject: { reference: `Patient/${patient.body.id}` },
    },
  });
  expect(encounter.status).toBe(201);
  return { patient: patient.body.id as string, encounter: encounter.body.id as string };
}

/** What the chart does before it opens an app: a SmartAppLaunch saved with the clinician's own token. */
export async function ehrLaunch(accessToken: string, context: { patient: string; encounter: string }): Promise<string> {
  const launch = await http<any>('POST', 'fhir/R4/SmartAppLaunch', {
    token: accessToken,
    body: {
      resourceType: 'SmartAppLaunch',
      patient: { reference: `Patient/${context.patient}` },
      encounter: { reference: `Encounter/${context.encounter}` },
    },
  });
  expect(launch.status).toBe(201);
  return launch.body.id as string;
}
