import { parseArgs } from 'node:util';
import type { Bot, Bundle } from '@medplum/fhirtypes';
import { bundleDoseSpotBots } from '../../config/bots/dosespot/bundleDoseSpotBots';
import { DOSESPOT_BOT_SYSTEM } from '../../config/bots/dosespot/dosespotBotIds';
import { doseSpotBotResource } from '../seed/dosespotBots';
import { cliToken } from './cliCredentials';

const usage = `Usage: npm run deploy-dosespot -- --project <project id or name> [--server URL]

Bundles the DoseSpot bots (config/bots/dosespot) and creates or updates them in the project, by
their identifiers (${DOSESPOT_BOT_SYSTEM}|dosespot-patient-sync-bot, |dosespot-iframe-bot,
|dosespot-notification-counts-bot). Signs in as a project admin of that project: HEARTH_TOKEN, or
HEARTH_EMAIL and HEARTH_PASSWORD (default: the first-run super admin). Then set the project
secrets DOSESPOT_CLINIC_ID, DOSESPOT_CLINIC_KEY, DOSESPOT_SUBSCRIPTION_KEY and DOSESPOT_BASE_URL.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { server: { type: 'string' }, project: { type: 'string' }, help: { type: 'boolean', default: false } },
  });
  if (values.help || !values.project) {
    console.log(usage);
    return values.help ? 0 : 1;
  }
  const rawServer = values.server ?? process.env.BASE_URL ?? 'http://localhost:8103/';
  const server = rawServer.endsWith('/') ? rawServer : `${rawServer}/`;
  const base = new URL('fhir/R4/', server).toString();
  const token = await cliToken(server, { ...process.env, HEARTH_PROJECT: values.project });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' };
  for (const bot of await bundleDoseSpotBots()) {
    const search = await fetch(
      `${base}Bot?identifier=${encodeURIComponent(`${DOSESPOT_BOT_SYSTEM}|${bot.identifier}`)}`,
      {
        headers,
      },
    );
    if (!search.ok) throw new Error(`Searching for ${bot.identifier}: HTTP ${search.status} ${await search.text()}`);
    const existing = ((await search.json()) as Bundle<Bot>).entry?.[0]?.resource;
    const resource = { ...doseSpotBotResource(bot), ...(existing ? { id: existing.id } : {}) };
    const saved = await fetch(existing ? `${base}Bot/${existing.id}` : `${base}Bot`, {
      method: existing ? 'PUT' : 'POST',
      headers,
      body: JSON.stringify(resource),
    });
    if (!saved.ok) throw new Error(`Saving ${bot.identifier}: HTTP ${saved.status} ${await saved.text()}`);
    const id = ((await saved.json()) as Bot).id;
    console.log(`${existing ? 'Updated' : 'Created'} Bot/${id} (${bot.identifier}, ${bot.code.length} bytes)`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Deploy failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
