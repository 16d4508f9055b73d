import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInThroughClient } from '../../tests/integration/accounts';
import { totpCode } from './totp';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const refusal = "Sign in with the account's own credentials to change its security settings";

/**
 * Found while adding "Continue as …" to /oauth: a token issued to a third-party app (a SMART app a
 * project admin registered, signed in with the person's password) could manage the account itself.
 * It read the account's sessions (addresses, browsers) from auth/me, revoked them, and — worst —
 * fetched a TOTP secret from auth/mfa/status and enrolled it, so the person could no longer sign in
 * without a code only the app knew. The account spans every project; an app gets its project's data.
 */
describe("a third-party app's token cannot manage the account's security", () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let appToken: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('App Security Clinic');
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: { resourceType: 'ClientApplication', name: 'Some app', redirectUri: 'https://some-app.example/cb' },
    });
    expect(client.status).toBe(201);
    const tokens = await signInThroughClient(owner.email, owner.password, client.body.id);
    expect(tokens.status).toBe(200);
    appToken = tokens.body.access_token as string;
  });

  it('the app reads its project and profile, not the account’s sessions', async () => {
    const me = await http<any>('GET', 'auth/me', { token: appToken });
    expect(me.status).toBe(200);
    expect(me.body.project.id).toBe(owner.projectId);
    expect(me.body.security.sessions).toEqual([]);
    // The person's own session still lists them.
    const own = await http<any>('GET', 'auth/me', { token: owner.tokens.access_token });
    expect(own.body.security.sessions.length).toBeGreaterThan(0);
  });

  it('two-factor enrolment, session revocation and password change are refused to the app', async () => {
    const status = await http<any>('GET', 'auth/mfa/status', { token: appToken });
    expect(status.status).toBe(403);
    expect(issueText(status.body)).toBe(refusal);
    // Even with a secret it learnt elsewhere, the app cannot enrol it.
    const ownStatus = await http<any>('GET', 'auth/mfa/status', { token: owner.tokens.access_token });
    const secret = new URL(ownStatus.body.enrollUri).searchParams.get('secret') as string;
    for (const [method, path, body] of [
      ['POST', 'auth/mfa/enroll', { token: totpCode(secret) }],
      ['POST', 'auth/mfa/disable', { token: totpCode(secret) }],
      ['POST', 'auth/revoke', { loginId: 'any' }],
      ['POST', 'auth/changepassword', { oldPassword: owner.password, newPassword: 'taken over 123' }],
    ] as const) {
      const refused = await http<any>(method, path, {
        token: appToken,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(refused.status, path).toBe(403);
      expect(issueText(refused.body), path).toBe(refusal);
    }
    const after = await http<any>('GET', 'auth/mfa/status', { token: owner.tokens.access_token });
    expect(after.body.enrolled).toBe(false);
  });
});
