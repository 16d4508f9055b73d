import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { postJson, registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';
import { pkcePair } from '../../tests/integration/signIn';
import {
  appRedirectUri,
  appTokens,
  ehrLaunch,
  invitedMember,
  patientAndEncounter,
  redeem,
  registerApp,
  smartLaunchScope,
  type Owner,
} from './tokenEndpoint.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const onlyHearthSessions =
  'Only a Hearth EMR session can continue into another application: sign in on this page instead';

/** The `/oauth` page's question, asked with one account's token. */
const availability = (launch: string, token: string | undefined) =>
  http<any>('GET', `auth/continue/launch/${encodeURIComponent(launch)}`, { token: token ?? null });

/**
 * `GET /auth/continue/launch/{launch}`: the `/oauth` account chooser offers, for an EHR launch, only
 * the accounts whose session could take it up. Before, it offered every account signed in in the
 * browser, and a colleague's account was refused by the token endpoint only after the click.
 */
describe('which session may continue into an EHR launch', () => {
  let owner: Owner;
  let clientId: string;
  let context: { patient: string; encounter: string };
  let colleagueToken: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Launch Chooser Clinic');
    clientId = await registerApp(owner);
    context = await patientAndEncounter(owner);
    const colleague = await invitedMember(owner, 'Practitioner');
    colleagueToken = (await signInWithScope(colleague.email, colleague.password, 'openid profile')).access_token;
  });

  /** "Continue as …" into the app with the launch, as the account holding `token`: the code and verifier. */
  async function continueInto(launch: string, token: string) {
    const { verifier, challenge } = pkcePair();
    let step = await postJson(
      'auth/continue',
      {
        clientId,
        redirectUri: appRedirectUri,
        scope: smartLaunchScope,
        launch,
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      },
      token,
    );
    if (step.body.scopes) step = await postJson('auth/scope', { login: step.body.login, scope: smartLaunchScope });
    expect(typeof step.body.code, JSON.stringify(step.body)).toBe('string');
    return { code: step.body.code as string, verifier };
  }

  it('answers usable to the launcher and "started by someone else" to a colleague', async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    const own = await availability(launch, owner.tokens.access_token);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ usable: true });
    expect(own.headers.get('cache-control')).toBe('no-store');
    const colleague = await availability(launch, colleagueToken);
    expect(colleague.body).toEqual({ usable: false, reason: 'startedBySomeoneElse' });
  });

  it('still refuses the colleague at the token endpoint when their session continues anyway', async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    const taken = await redeem(await continueInto(launch, colleagueToken), {
      client_id: clientId,
      redirect_uri: appRedirectUri,
    });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({
      error: 'invalid_request',
      error_description: 'This launch was started by someone else: launch the application from your own session',
    });
    expect(taken.body.patient).toBeUndefined();
    // The colleague's attempt took nothing up: the launcher continues and gets the context.
    const tokens = await appTokens(await continueInto(launch, owner.tokens.access_token), {
      clientId,
      redirectUri: appRedirectUri,
    });
    expect(tokens).toMatchObject({ patient: context.patient, encounter: context.encounter });
  });

  it('answers "used" once the launcher’s sign-in took it up', async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    await appTokens(await continueInto(launch, owner.tokens.access_token), { clientId, redirectUri: appRedirectUri });
    expect((await availability(launch, owner.tokens.access_token)).body).toEqual({ usable: false, reason: 'used' });
    // Someone else still learns only that it is not theirs.
    expect((await availability(launch, colleagueToken)).body).toEqual({
      usable: false,
      reason: 'startedBySomeoneElse',
    });
  });

  it('reads a launch of another project like a made-up one: unknown', async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    const other = await registerProjectOwner('Launch Chooser Elsewhere');
    expect((await availability(launch, other.tokens.access_token)).body).toEqual({ usable: false, reason: 'unknown' });
    expect((await availability('no-such-launch', owner.tokens.access_token)).body).toEqual({
      usable: false,
      reason: 'unknown',
    });
  });

  it('refuses an anonymous caller, an app’s token and a malformed launch id', async () => {
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    expect((await availability(launch, undefined)).status).toBe(401);
    const app = await continueInto(launch, owner.tokens.access_token);
    const appToken = (await appTokens(app, { clientId, redirectUri: appRedirectUri })).access_token;
    const fromApp = await availability(launch, appToken);
    expect(fromApp.status).toBe(403);
    expect(issueText(fromApp.body)).toBe(onlyHearthSessions);
    const malformed = await availability('a:b', owner.tokens.access_token);
    expect(malformed.status).toBe(400);
    expect(issueExpressions(malformed.body)).toEqual(['launch']);
  });
});
