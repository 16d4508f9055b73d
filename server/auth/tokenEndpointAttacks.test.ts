import { beforeAll, describe, expect, it } from 'vitest';
import { registerProjectOwner } from '../../tests/integration/accounts';
import {
  appCode,
  appRedirectUri,
  ehrLaunch,
  invitedMember,
  patientAndEncounter,
  redeem,
  refresh,
  registerApp,
  smartLaunchScope,
  tokenWorks,
  webAppCode,
  type Account,
  type Owner,
} from './tokenEndpoint.test-support';

/**
 * Holes an outside review found in `POST /oauth2/token`, replayed over HTTP. The races (one code or
 * refresh token redeemed by many requests at once) need a native PostgreSQL: tokenRace.native.test.ts.
 */

describe('a code used twice ends the session its first use began (RFC 6749 §4.1.2)', () => {
  it("revokes the first use's access and refresh tokens", async () => {
    const owner = await registerProjectOwner();
    const issued = await webAppCode(owner);
    const first = await redeem(issued);
    expect(first.status).toBe(200);
    expect(await tokenWorks(first.body.access_token)).toBe(200);

    // Before: 400 invalid_grant, and the tokens of the first use went on working.
    const again = await redeem(issued);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Authorization code already used; the tokens issued with it have been revoked',
    });
    expect(await tokenWorks(first.body.access_token)).toBe(401);
    expect((await refresh(first.body.refresh_token)).body.error).toBe('invalid_grant');
    // A third use finds an ended sign-in.
    expect((await redeem(issued)).body).toEqual({ error: 'invalid_grant', error_description: 'Invalid code' });
  });
});

describe("a code is redeemed only by its client, with the authorization request's redirect_uri", () => {
  let owner: Owner;
  let clientId: string;
  let otherClientId: string;

  beforeAll(async () => {
    owner = await registerProjectOwner();
    clientId = await registerApp(owner);
    otherClientId = await registerApp(owner, { redirectUri: 'https://other-app.example/cb' });
  });

  it('refuses a redirect_uri the code was not issued for, and still redeems it at its own', async () => {
    const issued = await appCode(owner, { clientId });
    // Before: 200.
    const elsewhere = await redeem(issued, { client_id: clientId, redirect_uri: 'https://evil.example/cb' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({
      error: 'invalid_grant',
      error_description: 'redirect_uri does not match the authorization request',
    });
    expect(elsewhere.body.access_token).toBeUndefined();
    const ok = await redeem(issued, { client_id: clientId, redirect_uri: appRedirectUri });
    expect(ok.status).toBe(200);
    expect(await tokenWorks(ok.body.access_token)).toBe(200);
  });

  it("refuses a public client's code without client_id, or with another client's", async () => {
    const issued = await appCode(owner, { clientId });
    // Before: 200 — the "issued to another client" check ran only when client_id was sent.
    const anonymous = await redeem(issued, { redirect_uri: appRedirectUri });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body).toEqual({
      error: 'invalid_request',
      error_description: 'Missing client_id: the code was issued to a client application',
    });
    const other = await redeem(issued, { client_id: otherClientId, redirect_uri: appRedirectUri });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: 'invalid_grant', error_description: 'Code was issued to another client' });
    const ok = await redeem(issued, { client_id: clientId, redirect_uri: appRedirectUri });
    expect(ok.status).toBe(200);
    // Its refresh token stays with it too.
    const stolen = await refresh(ok.body.refresh_token, { client_id: otherClientId });
    expect(stolen.body).toEqual({
      error: 'invalid_grant',
      error_description: 'Refresh token was issued to another client',
    });
  });

  it("refuses this web app's code, and its refresh token, to an app that names itself", async () => {
    const issued = await webAppCode(owner);
    // Before: 200 — the web app's sign-in names no client, so nothing was compared.
    const taken = await redeem(issued, { client_id: clientId });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ error: 'invalid_grant', error_description: 'Code was issued to another client' });
    const own = await redeem(issued, { client_id: 'hearth-emr-app' });
    expect(own.status).toBe(200);
    expect((await refresh(own.body.refresh_token, { client_id: clientId })).body.error).toBe('invalid_grant');
    expect((await refresh(own.body.refresh_token)).status).toBe(200);
  });
});

describe('an EHR launch gives its context to the person who started it, once', () => {
  let owner: Owner;
  let clientId: string;
  let context: { patient: string; encounter: string };
  let patientUser: Account;
  let colleague: Account;

  beforeAll(async () => {
    owner = await registerProjectOwner();
    clientId = await registerApp(owner);
    context = await patientAndEncounter(owner);
    patientUser = await invitedMember(owner, 'Patient');
    colleague = await invitedMember(owner, 'Practitioner');
  });

  const launchSignIn = async (account: Account, launch: string) =>
    redeem(await appCode(account, { clientId, scope: smartLaunchScope, launch }), {
      client_id: clientId,
      redirect_uri: appRedirectUri,
    });

  it("refuses a launch the clinician started to a patient's and a colleague's sign-in", async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    for (const someoneElse of [patientUser, colleague]) {
      // Before: 200 with `patient` and `encounter` of the clinician's launch.
      const taken = await launchSignIn(someoneElse, launch);
      expect(taken.status, someoneElse.email).toBe(400);
      expect(taken.body).toEqual({
        error: 'invalid_request',
        error_description: 'This launch was started by someone else: launch the application from your own session',
      });
      expect(taken.body.patient).toBeUndefined();
    }
    // The clinician who started it still gets its context.
    const own = await launchSignIn(owner, launch);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ patient: context.patient, encounter: context.encounter });
  });

  it('takes a launch up for one sign-in only; refreshing that one keeps its context', async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    const first = await launchSignIn(owner, launch);
    expect(first.status).toBe(200);
    expect(first.body.patient).toBe(context.patient);
    // Before: 200 again, as often as the launch id was presented.
    const again = await launchSignIn(owner, launch);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'invalid_request',
      error_description: 'This launch was already used: launch the application again',
    });
    const refreshed = await refresh(first.body.refresh_token, { client_id: clientId });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ patient: context.patient, encounter: context.encounter });
  });
});
