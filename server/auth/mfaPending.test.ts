import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, tokenRequest } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';
import { totpCode } from './totp';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const pending = 'Two-factor sign-in is not complete: enter the code from your authenticator app first';

/**
 * Issue 14 item 3: after the password of an account with two-factor sign-in, the attacker (who
 * knows only the password) tried every later step without the TOTP code.
 */
describe('no sign-in step proceeds while the two-factor code is due', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let secret: string;
  let secondMembership: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('MFA Clinic');
    // A second project, so that the account has memberships to list and choose from.
    const { challenge } = pkcePair();
    const before = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    const second = await postJson('auth/newproject', { login: before.body.login, projectName: 'MFA Clinic Two' });
    expect(typeof second.body.code).toBe('string');
    const token = owner.tokens.access_token;
    const status = await http<any>('GET', 'auth/mfa/status', { token });
    secret = new URL(status.body.enrollUri).searchParams.get('secret') as string;
    expect((await postJson('auth/mfa/enroll', { token: totpCode(secret) }, token)).body.enrolled).toBe(true);
    const memberships = await http<any>('GET', `fhir/R4/ProjectMembership?user=User/${(await me(token)).user.id}`);
    secondMembership = memberships.body.entry
      .map((e: any) => e.resource)
      .find((m: any) => m.project.reference !== `Project/${owner.projectId}`).id;
  });

  async function me(token: string) {
    return (await http<any>('GET', 'auth/me', { token })).body;
  }

  /** The attacker's start: the right password, no TOTP code. */
  async function passwordOnly(extra: Record<string, unknown> = {}) {
    const { verifier, challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      ...extra,
    });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ login: start.body.login, mfaRequired: true });
    return { login: start.body.login as string, verifier };
  }

  it('GET auth/login/{login} says only that the code is due, listing no memberships', async () => {
    const { login } = await passwordOnly();
    const status = await http<any>('GET', `auth/login/${login}`, { token: null });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ id: login, email: owner.email, mfaRequired: true, memberships: [] });
  });

  it('auth/profile is refused and gives no code', async () => {
    const { login } = await passwordOnly();
    const chosen = await postJson('auth/profile', { login, profile: secondMembership });
    expect(chosen.status).toBe(403);
    expect(issueText(chosen.body)).toBe(pending);
    expect(chosen.body.code).toBeUndefined();
  });

  it('auth/scope is refused', async () => {
    const { login } = await passwordOnly({ scope: 'openid patient/*.read' });
    const scoped = await postJson('auth/scope', { login, scope: 'patient/*.read' });
    expect(scoped.status).toBe(403);
    expect(issueText(scoped.body)).toBe(pending);
  });

  it('auth/newproject is refused and creates no project', async () => {
    const { login } = await passwordOnly();
    const name = `Sneaky ${Date.now()}`;
    const created = await postJson('auth/newproject', { login, projectName: name });
    expect(created.status).toBe(403);
    expect(issueText(created.body)).toBe(pending);
    const projects = await http<any>('GET', `fhir/R4/Project?name:exact=${encodeURIComponent(name)}`);
    expect(projects.body.entry ?? []).toHaveLength(0);
  });

  it('auth/newpatient is refused', async () => {
    const { login } = await passwordOnly();
    const registered = await postJson('auth/newpatient', { login, projectId: owner.projectId });
    expect(registered.status).toBe(403);
    expect(issueText(registered.body)).toBe(pending);
  });

  it('the token endpoint redeems no code of a login whose two-factor step is due', async () => {
    // A code issued before the account enrolled two-factor sign-in (from another session) is
    // redeemed only by a login that passed the step: the check holds at the token endpoint too.
    const other = await registerProjectOwner();
    const { verifier, challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email: other.email,
      password: other.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(typeof start.body.code).toBe('string');
    const token = other.tokens.access_token;
    const status = await http<any>('GET', 'auth/mfa/status', { token });
    const otherSecret = new URL(status.body.enrollUri).searchParams.get('secret') as string;
    expect((await postJson('auth/mfa/enroll', { token: totpCode(otherSecret) }, token)).status).toBe(200);
    const redeemed = await tokenRequest({
      grant_type: 'authorization_code',
      code: start.body.code,
      code_verifier: verifier,
    });
    expect(redeemed.status).toBe(400);
    expect(redeemed.body).toEqual({ error: 'invalid_grant', error_description: 'Two-factor sign-in is not complete' });
    // A login id is not a code.
    const { login, verifier: v2 } = await passwordOnly();
    const guessed = await tokenRequest({ grant_type: 'authorization_code', code: login, code_verifier: v2 });
    expect(guessed.body.error).toBe('invalid_grant');
  });

  it('every step works once the code is given, on the same login', async () => {
    const { login, verifier } = await passwordOnly();
    // The next step's code: the one that enrolled is used up (a code is accepted once).
    const verified = await postJson('auth/mfa/verify', { login, token: totpCode(secret, Date.now() + 30_000) });
    expect(verified.status).toBe(200);
    expect(verified.body.memberships).toHaveLength(2);
    const status = await http<any>('GET', `auth/login/${login}`, { token: null });
    expect(status.body.mfaRequired).toBe(false);
    expect(status.body.memberships).toHaveLength(2);
    const chosen = await postJson('auth/profile', { login, profile: secondMembership });
    expect(typeof chosen.body.code).toBe('string');
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code: chosen.body.code,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    expect((await me(tokens.body.access_token)).membership.id).toBe(secondMembership);
  });
});
