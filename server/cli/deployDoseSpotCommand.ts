import { parseArgs } from 'node:util';
import type { AccessPolicy, Bot, Bundle, ProjectMembership } from '@medplum/fhirtypes';
import { bundleDoseSpotBots } from '../../config/bots/dosespot/bundleDoseSpotBots';
import { DOSESPOT_BOT_SYSTEM } from '../../config/bots/dosespot/dosespotBotIds';
import {
  DOSESPOT_BOT_POLICY_NAME,
  doseSpotBotMembership,
  doseSpotBotPolicy,
  doseSpotBotResource,
} from '../seed/dosespotBots';
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
  const json = async <T>(path: string, what: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`${base}${path}`, { ...init, headers });
    if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  // The bots' own rights (see doseSpotBotPolicy): one policy per project, found by name, kept current.
  const policies = await json<Bundle<AccessPolicy>>(
    `AccessPolicy?name=${encodeURIComponent(DOSESPOT_BOT_POLICY_NAME)}`,
    'Searching for the DoseSpot bot policy',
  );
  const existingPolicy = policies.entry?.find((entry) => entry.resource?.name === DOSESPOT_BOT_POLICY_NAME)?.resource;
  const policy = await json<AccessPolicy>(
    existingPolicy ? `AccessPolicy/${existingPolicy.id}` : 'AccessPolicy',
    'Saving the DoseSpot bot policy',
    {
      method: existingPolicy ? 'PUT' : 'POST',
      body: JSON.stringify({ ...doseSpotBotPolicy(), ...(existingPolicy ? { id: existingPolicy.id } : {}) }),
    },
  );
  const projectId = policy.meta?.project as string;
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
    const id = ((await saved.json()) as Bot).id as string;
    // The bot acts under the policy: its membership (made by an earlier run or deploy) is replaced.
    const memberships = await json<Bundle<ProjectMembership>>(
      `ProjectMembership?profile=${encodeURIComponent(`Bot/${id}`)}`,
      `Searching for ${bot.identifier}'s membership`,
    );
    const membership = memberships.entry?.[0]?.resource;
    const wanted = {
      ...doseSpotBotMembership({ id, name: bot.name }, projectId, { reference: `AccessPolicy/${policy.id}` }),
      ...(membership ? { id: membership.id } : {}),
    };
    await json(
      membership ? `ProjectMembership/${membership.id}` : 'ProjectMembership',
      `Saving ${bot.identifier}'s membership`,
      {
        method: membership ? 'PUT' : 'POST',
        body: JSON.stringify(wanted),
      },
    );
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
