import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';
import { totpCode } from './totp';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const usedCode = 'This code was already used: wait for the next one from your authenticator app';

/**
 * RFC 6238 §5.2: a two-factor code is accepted once. Replayed here: someone who learnt the
 * password and watched (or relayed through a phishing page) the code its owner just typed signs
 * in with the same code within its 30–90 seconds; and two requests racing with one code.
 */
describe('a two-factor code works once', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let secret: string;
  /** Codes accepted so far, most recent last (each test picks a fresh one, whatever the clock did). */
  const used: string[] = [];
  const freshCode = () =>
    [0, 30_000, -30_000]
      .map((shift) => totpCode(secret, Date.now() + shift))
      .find((code) => !used.includes(code)) as string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Replay Clinic');
    const status = await http<any>('GET', 'auth/mfa/status', { token: owner.tokens.access_token });
    secret = new URL(status.body.enrollUri).searchParams.get('secret') as string;
    used.push(totpCode(secret));
    const enrolled = await postJson('auth/mfa/enroll', { token: used[0] }, owner.tokens.access_token);
    expect(enrolled.body.enrolled).toBe(true);
  });

  const passwordStep = async () => {
    const { challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email: owner.email,
      password: owner.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(start.body.mfaRequired).toBe(true);
    return start.body.login as string;
  };

  it('refuses the code that enrolled, and the code that signed someone in, for a second sign-in', async () => {
    const enrolment = await postJson('auth/mfa/verify', { login: await passwordStep(), token: used[0] });
    expect(enrolment.status).toBe(400);
    expect(issueText(enrolment.body)).toBe(usedCode);
    expect(issueExpressions(enrolment.body)).toEqual(['token']);

    const code = freshCode();
    const owners = await postJson('auth/mfa/verify', { login: await passwordStep(), token: code });
    expect(owners.status).toBe(200);
    used.push(code);
    const attackersLogin = await passwordStep();
    const attackers = await postJson('auth/mfa/verify', { login: attackersLogin, token: code });
    expect(attackers.status).toBe(400);
    expect(issueText(attackers.body)).toBe(usedCode);
    // The attacker's login stays where it was: the two-factor step is still due.
    const status = await http<any>('GET', `auth/login/${attackersLogin}`, { token: null });
    expect(status.body.mfaRequired).toBe(true);
  });

  it('lets only one of two requests racing with one code through', async () => {
    const [a, b] = await Promise.all([passwordStep(), passwordStep()]);
    const code = freshCode();
    const answers = await Promise.all([
      postJson('auth/mfa/verify', { login: a, token: code }),
      postJson('auth/mfa/verify', { login: b, token: code }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    used.push(code);
    expect(issueText(answers.find((answer) => answer.status === 400)?.body)).toBe(usedCode);
  });

  it('refuses a used code for turning two-factor sign-in off', async () => {
    const disable = await postJson('auth/mfa/disable', { token: used[used.length - 1] }, owner.tokens.access_token);
    expect(disable.status).toBe(400);
    expect(issueText(disable.body)).toBe(usedCode);
    const status = await http<any>('GET', 'auth/mfa/status', { token: owner.tokens.access_token });
    expect(status.body.enrolled).toBe(true);
  });
});
