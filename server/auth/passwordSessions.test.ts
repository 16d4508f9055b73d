import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, tokenRequest } from '../../tests/integration/accounts';
import { pkcePair, signIn, type Tokens } from '../../tests/integration/signIn';

/**
 * Issue 14 item 8: after a password change or reset, sessions opened with the old password (a
 * thief's) kept working, access and refresh tokens alike.
 */
describe('a new password ends the other sessions', () => {
  const works = async (tokens: Tokens) =>
    (await http('GET', 'fhir/R4/Patient?_count=1', { token: tokens.access_token })).status;
  const refreshes = async (tokens: Tokens) =>
    (await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string })).status;

  async function pendingCode(email: string, password: string) {
    const { verifier, challenge } = pkcePair();
    const start = await postJson('auth/login', {
      email,
      password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(typeof start.body.code).toBe('string');
    return { code: start.body.code as string, verifier };
  }

  it('a change keeps the current session and ends every other one at once', async () => {
    const owner = await registerProjectOwner();
    const current = owner.tokens;
    const thief = await signIn(baseUrl(), owner.email, owner.password);
    const unredeemed = await pendingCode(owner.email, owner.password);
    expect(await works(thief)).toBe(200);

    const changed = await postJson(
      'auth/changepassword',
      { oldPassword: owner.password, newPassword: 'a new password 42' },
      current.access_token,
    );
    expect(changed.status).toBe(200);

    expect(await works(thief)).toBe(401);
    expect(await refreshes(thief)).toBe(400);
    const late = await tokenRequest({
      grant_type: 'authorization_code',
      code: unredeemed.code,
      code_verifier: unredeemed.verifier,
    });
    expect(late.body.error).toBe('invalid_grant');
    // The session that changed the password goes on, refresh included.
    expect(await works(current)).toBe(200);
    expect(await refreshes(current)).toBe(200);
  });

  it('a reset through the e-mailed link ends every session', async () => {
    const owner = await registerProjectOwner();
    const second = await signIn(baseUrl(), owner.email, owner.password);
    expect((await postJson('auth/resetpassword', { email: owner.email })).status).toBe(200);
    // Asking for a reset ends nothing: anyone may ask for anyone.
    expect(await works(owner.tokens)).toBe(200);
    const outbox = join(inject('dataDir'), 'outbox');
    const message = readdirSync(outbox)
      .map((file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { to: string; text: string })
      .find((m) => m.to === owner.email) as { text: string };
    const link = /setpassword\/([^/\s]+)\/(\S+)/.exec(message.text) as RegExpExecArray;
    const set = await postJson('auth/setpassword', { id: link[1], secret: link[2], password: 'reset password 42' });
    expect(set.status).toBe(200);
    for (const tokens of [owner.tokens, second]) {
      expect(await works(tokens)).toBe(401);
      expect(await refreshes(tokens)).toBe(400);
    }
    const fresh = await signIn(baseUrl(), owner.email, 'reset password 42');
    expect(await works(fresh)).toBe(200);
  });
});
