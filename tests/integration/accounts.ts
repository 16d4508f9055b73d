import { randomUUID } from 'node:crypto';
import { baseUrl } from './fhirClient';
import { exchangeCode, pkcePair, type Tokens } from './signIn';

/** Accounts for auth tests, made through the public registration endpoints. */

export async function postJson(path: string, body: unknown, token?: string) {
  const response = await fetch(new URL(path, baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test answers of many shapes
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@test.example`;
}

/** A new user (server-wide, no project yet); answers the pending login id. */
export async function registerUser(email: string, password: string, challenge: string): Promise<string> {
  const answer = await postJson('auth/newuser', {
    firstName: 'Test',
    lastName: email.split('@')[0],
    email,
    password,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
  });
  if (answer.status !== 200) throw new Error(`newuser failed: ${JSON.stringify(answer.body)}`);
  return answer.body.login as string;
}

/** A user who owns a new project (as project admin), signed in. */
export async function registerProjectOwner(projectName = `Project ${randomUUID().slice(0, 6)}`) {
  const email = uniqueEmail('owner');
  const password = 'correct horse battery';
  const { verifier, challenge } = pkcePair();
  const login = await registerUser(email, password, challenge);
  const project = await postJson('auth/newproject', { login, projectName });
  if (typeof project.body.code !== 'string') throw new Error(`newproject failed: ${JSON.stringify(project.body)}`);
  const tokens: Tokens = await exchangeCode(baseUrl(), project.body.code, verifier);
  return { email, password, tokens, projectId: tokens.project.reference.split('/')[1], projectName };
}

/** `POST oauth2/token` with a form body (and optional headers, e.g. Basic client authentication). */
export async function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(new URL('oauth2/token', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** `auth/login` with a fresh PKCE pair (S256): the first step's answer, and the verifier its code needs. */
async function pkceLogin(fields: Record<string, unknown>) {
  const { verifier, challenge } = pkcePair();
  const step = await postJson('auth/login', { ...fields, codeChallenge: challenge, codeChallengeMethod: 'S256' });
  return { step, verifier };
}

/**
 * Signs in with a SMART `scope` and confirms all of it (the consent step third-party apps get);
 * `project` picks the membership when the account has several.
 */
export async function signInWithScope(email: string, password: string, scope: string, project?: string) {
  const { step: first, verifier } = await pkceLogin({ email, password, scope });
  let step = first;
  if (step.status !== 200) throw new Error(`Sign-in failed: ${JSON.stringify(step.body)}`);
  if (step.body.memberships) {
    const memberships = step.body.memberships as { id: string; project: { reference: string } }[];
    const chosen = memberships.find((m) => !project || m.project.reference === `Project/${project}`);
    step = await postJson('auth/profile', { login: step.body.login, profile: chosen?.id });
  }
  if (step.body.scopes) step = await postJson('auth/scope', { login: step.body.login, scope });
  if (typeof step.body.code !== 'string') throw new Error(`No code: ${JSON.stringify(step.body)}`);
  return exchangeCode(baseUrl(), step.body.code, verifier);
}

/**
 * Signs in through a ClientApplication as a public app does (PKCE, the client id at the token
 * endpoint); answers the token endpoint's reply, whatever its status.
 */
export async function signInThroughClient(email: string, password: string, clientId: string) {
  const { step: start, verifier } = await pkceLogin({ email, password, clientId });
  if (typeof start.body.code !== 'string') throw new Error(`No code: ${JSON.stringify(start.body)}`);
  return tokenRequest({
    grant_type: 'authorization_code',
    code: start.body.code,
    code_verifier: verifier,
    client_id: clientId,
  });
}

/** The first step of a password sign-in (`POST auth/login` with a fresh PKCE pair): its answer and the verifier. */
export async function loginStart(email: string, password: string, extra: Record<string, unknown> = {}) {
  const { verifier, challenge } = pkcePair();
  const answer = await postJson('auth/login', {
    email,
    password,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
    ...extra,
  });
  return { ...answer, verifier };
}
