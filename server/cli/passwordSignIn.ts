import { createHash, randomBytes } from 'node:crypto';

/** Signs in over HTTP the way the web app does (PKCE, /auth/login, /oauth2/token): for the command-line tools and tests. */

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in: number;
  project: { reference: string };
  profile: { reference: string };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(96).toString('base64url').slice(0, 128);
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function post(
  base: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function exchangeCode(base: string, code: string, verifier: string, clientId?: string): Promise<Tokens> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier });
  if (clientId) form.set('client_id', clientId);
  const response = await fetch(new URL('oauth2/token', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const body = (await response.json()) as Tokens & { error_description?: string };
  if (!response.ok) throw new Error(`Token exchange failed: ${response.status} ${body.error_description}`);
  return body;
}

/**
 * Password sign-in to the end: picks the membership whose project name or id matches `project`
 * when there are several.
 */
export async function signIn(
  base: string,
  email: string,
  password: string,
  options: { project?: string } = {},
): Promise<Tokens> {
  const { verifier, challenge } = pkcePair();
  let step = await post(base, 'auth/login', {
    email,
    password,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
  });
  if (step.status !== 200) throw new Error(`Sign-in of ${email} failed: ${step.status} ${JSON.stringify(step.body)}`);
  if (step.body.memberships) {
    const memberships = step.body.memberships as { id: string; project: { reference: string; display?: string } }[];
    const chosen = options.project
      ? memberships.find(
          (m) => m.project.display === options.project || m.project.reference.endsWith(`/${options.project}`),
        )
      : memberships[0];
    if (!chosen) throw new Error(`No membership of ${email} in ${options.project}`);
    step = await post(base, 'auth/profile', { login: step.body.login, profile: chosen.id });
  }
  if (typeof step.body.code !== 'string') throw new Error(`No code for ${email}: ${JSON.stringify(step.body)}`);
  return exchangeCode(base, step.body.code, verifier);
}
