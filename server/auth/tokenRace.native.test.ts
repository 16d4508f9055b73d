import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { registerProjectOwner } from '../../tests/integration/accounts';
import {
  appCode,
  appRedirectUri,
  ehrLaunch,
  patientAndEncounter,
  redeem,
  refresh,
  registerApp,
  smartLaunchScope,
  tokenWorks,
  webAppCode,
  type Owner,
} from './tokenEndpoint.test-support';

/**
 * One code, one refresh token or one EHR launch presented by many token requests at the same time,
 * on native PostgreSQL (each request its own connection and transaction; PGlite runs one
 * transaction at a time and never showed it). Before, every request read the same Login before
 * any of them wrote it: ten redemptions of one code got ten sets of working tokens, five refreshes
 * of one refresh token five, and the rotation's theft detection never fired. Now the Login's row
 * (and the launch's) is held by the first request, and exactly one is granted.
 */
describe('concurrent token requests: exactly one wins', () => {
  let owner: Owner;

  beforeAll(async () => {
    expect(inject('databaseKind')).toBe('postgres');
    owner = await registerProjectOwner();
  });

  const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status).sort();

  it('ten requests with one code: one 200, nine invalid_grant, and the reuse ends that session', async () => {
    for (let round = 0; round < 3; round++) {
      const issued = await webAppCode(owner);
      const answers = await Promise.all(Array.from({ length: 10 }, () => redeem(issued)));
      expect(statuses(answers), `round ${round}`).toEqual([200, ...Array<number>(9).fill(400)]);
      for (const refused of answers.filter((answer) => answer.status !== 200))
        expect(refused.body.error).toBe('invalid_grant');
      // A code presented more than once has leaked: what its first use got is revoked (RFC 6749 §4.1.2).
      const winner = answers.find((answer) => answer.status === 200) as (typeof answers)[number];
      expect(await tokenWorks(winner.body.access_token)).toBe(401);
      expect((await refresh(winner.body.refresh_token)).body.error).toBe('invalid_grant');
    }
  });

  it('five refreshes with one refresh token: one 200, and the replays end the session', async () => {
    for (let round = 0; round < 3; round++) {
      const signedIn = await redeem(await webAppCode(owner));
      expect(signedIn.status).toBe(200);
      const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(signedIn.body.refresh_token)));
      expect(statuses(answers), `round ${round}`).toEqual([200, 400, 400, 400, 400]);
      // Each replay ends the session; one that comes after that finds it ended.
      for (const refused of answers.filter((answer) => answer.status !== 200)) {
        expect(refused.body.error).toBe('invalid_grant');
        expect(['Refresh token already used; the session has been ended', 'Invalid refresh token']).toContain(
          refused.body.error_description,
        );
      }
      // docs/auth.md: presenting an older refresh token ends the login for everyone.
      const winner = answers.find((answer) => answer.status === 200) as (typeof answers)[number];
      expect(await tokenWorks(winner.body.access_token)).toBe(401);
      expect((await refresh(winner.body.refresh_token)).body.error).toBe('invalid_grant');
    }
  });

  it('an app redeeming its code many times at once: one 200', async () => {
    const clientId = await registerApp(owner);
    const issued = await appCode(owner, { clientId });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => redeem(issued, { client_id: clientId, redirect_uri: appRedirectUri })),
    );
    expect(statuses(answers)).toEqual([200, ...Array<number>(7).fill(400)]);
  });

  it('one EHR launch in several sign-ins redeemed at once: one of them gets its context', async () => {
    const clientId = await registerApp(owner);
    const context = await patientAndEncounter(owner);
    const launch = await ehrLaunch(owner.tokens.access_token, context);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await appCode(owner, { clientId, scope: smartLaunchScope, launch }));
    const answers = await Promise.all(
      codes.map((issued) => redeem(issued, { client_id: clientId, redirect_uri: appRedirectUri })),
    );
    expect(statuses(answers)).toEqual([200, 400, 400, 400]);
    expect(answers.filter((answer) => answer.body.patient === context.patient)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200))
      expect(refused.body.error_description).toBe('This launch was already used: launch the application again');
  });
});
