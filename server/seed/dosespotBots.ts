import type { Bot } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';
import { bundleDoseSpotBots } from '../../config/bots/dosespot/bundleDoseSpotBots';
import { DOSESPOT_BOT_SYSTEM } from '../../config/bots/dosespot/dosespotBotIds';

/** The Bot resource of one bundled DoseSpot bot (identified as Medplum identifies its DoseSpot bots). */
export function doseSpotBotResource(bot: { identifier: string; name: string; code: string }): Bot {
  return {
    resourceType: 'Bot',
    name: bot.name,
    description: `DoseSpot e-prescribing (${bot.identifier}); reads the project secrets DOSESPOT_CLINIC_ID, DOSESPOT_CLINIC_KEY, DOSESPOT_SUBSCRIPTION_KEY and DOSESPOT_BASE_URL`,
    identifier: [{ system: DOSESPOT_BOT_SYSTEM, value: bot.identifier }],
    code: bot.code,
  } as Bot;
}

/**
 * Installs the three DoseSpot bots in a new project (the demo clinic): bundled from their
 * TypeScript now, so the seeded code is always the shipped code.
 */
export async function seedDoseSpotBots(session: RepositorySession, options: { projectId: string }): Promise<number> {
  const ctx = { projectId: options.projectId, author: systemAuthor };
  const bundled = await bundleDoseSpotBots();
  for (const bot of bundled) await session.create(ctx, doseSpotBotResource(bot));
  return bundled.length;
}
