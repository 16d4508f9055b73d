import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

const run = promisify(execFile);
const identifiers = ['dosespot-patient-sync-bot', 'dosespot-iframe-bot', 'dosespot-notification-counts-bot'];

let owner: Awaited<ReturnType<typeof registerProjectOwner>>;

/** `npm run deploy-dosespot` as the project's owner (HEARTH_TOKEN), against the test server. */
async function deploy(project: string, token: string) {
  return run(
    process.execPath,
    ['--import', 'tsx', 'server/cli/deployDoseSpotCommand.ts', '--project', project, '--server', baseUrl()],
    {
      env: { ...process.env, HEARTH_TOKEN: token },
      timeout: 60_000,
    },
  );
}

async function botsOf(token: string): Promise<any[]> {
  const answer = await http<any>('GET', 'fhir/R4/Bot?_count=50', { token });
  return (answer.body.entry ?? []).map((entry: any) => entry.resource);
}

beforeAll(async () => {
  owner = await registerProjectOwner('DoseSpot Clinic');
});

describe('deploy-dosespot', () => {
  it('creates the three bots by identifier, updates them in place on a second run, and they answer', async () => {
    const first = await deploy(owner.projectId, owner.tokens.access_token);
    expect(first.stdout.match(/^Created Bot\//gm)).toHaveLength(3);
    const created = await botsOf(owner.tokens.access_token);
    expect(created.map((bot) => bot.identifier[0].value).sort()).toEqual([...identifiers].sort());
    expect(created.every((bot) => bot.identifier[0].system === 'https://www.medplum.com/bots')).toBe(true);
    expect(created.every((bot) => /exports\.handler = /.test(bot.code))).toBe(true);
    // The counts bot is polled every 10 s per prescriber: only its failures become AuditEvents.
    const triggers = Object.fromEntries(created.map((bot) => [bot.identifier[0].value, bot.auditEventTrigger]));
    expect(triggers).toEqual({
      'dosespot-patient-sync-bot': undefined,
      'dosespot-iframe-bot': undefined,
      'dosespot-notification-counts-bot': 'on-error',
    });

    const second = await deploy(owner.projectId, owner.tokens.access_token);
    expect(second.stdout.match(/^Updated Bot\//gm)).toHaveLength(3);
    const updated = await botsOf(owner.tokens.access_token);
    expect(updated.map((bot) => bot.id).sort()).toEqual(created.map((bot) => bot.id).sort());

    // Without the project's DoseSpot secrets the bots say what to set instead of calling DoseSpot.
    const counts = await http<any>(
      'POST',
      `fhir/R4/Bot/$execute?identifier=${encodeURIComponent('https://www.medplum.com/bots|dosespot-notification-counts-bot')}`,
      { token: owner.tokens.access_token, body: {}, headers: { 'content-type': 'application/json' } },
    );
    expect(counts.status).toBe(200);
    expect(counts.body).toEqual({
      configured: false,
      missing: ['DOSESPOT_CLINIC_ID', 'DOSESPOT_CLINIC_KEY', 'DOSESPOT_SUBSCRIPTION_KEY'],
    });
  });

  it('refuses without a project, and writes nothing for someone who may not write bots there', async () => {
    await expect(deploy('', owner.tokens.access_token)).rejects.toMatchObject({ code: 1 });
    const stranger = await registerProjectOwner('Other Clinic');
    // The stranger's token acts in their own project: the DoseSpot Clinic's bots are untouched.
    await deploy(stranger.projectId, stranger.tokens.access_token);
    const mine = await botsOf(owner.tokens.access_token);
    expect(mine).toHaveLength(3);
    const theirs = await botsOf(stranger.tokens.access_token);
    expect(theirs.every((bot) => bot.meta.project === stranger.projectId)).toBe(true);
  });
});
