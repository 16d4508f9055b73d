import type { AccessPolicy, Bot, ProjectMembership, Reference } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';
import { bundleDoseSpotBots } from '../../config/bots/dosespot/bundleDoseSpotBots';
import { DOSESPOT_BOT_SYSTEM, DOSESPOT_NOTIFICATION_COUNTS_BOT } from '../../config/bots/dosespot/dosespotBotIds';

/**
 * The Bot resource of one bundled DoseSpot bot (identified as Medplum identifies its DoseSpot bots).
 * The counts bot is polled every 10 s for each prescriber's bell: only its failures are recorded.
 */
export function doseSpotBotResource(bot: { identifier: string; name: string; code: string }): Bot {
  return {
    resourceType: 'Bot',
    ...(bot.identifier === DOSESPOT_NOTIFICATION_COUNTS_BOT ? { auditEventTrigger: 'on-error' as const } : {}),
    name: bot.name,
    description: `DoseSpot e-prescribing (${bot.identifier}); reads the project secrets DOSESPOT_CLINIC_ID, DOSESPOT_CLINIC_KEY, DOSESPOT_SUBSCRIPTION_KEY and DOSESPOT_BASE_URL`,
    identifier: [{ system: DOSESPOT_BOT_SYSTEM, value: bot.identifier }],
    code: bot.code,
  } as Bot;
}

export const DOSESPOT_BOT_POLICY_NAME = 'DoseSpot bots';

/**
 * What the DoseSpot bots may do in their project, and nothing more: read memberships (the caller's
 * DoseSpot clinician id is an identifier on theirs) and read and update Patients (the patient
 * sync writes https://dosespot.com/patient-id back). Without it a bot's membership would have the
 * whole project.
 */
export function doseSpotBotPolicy(): AccessPolicy {
  return {
    resourceType: 'AccessPolicy',
    name: DOSESPOT_BOT_POLICY_NAME,
    resource: [{ resourceType: 'ProjectMembership', readonly: true }, { resourceType: 'Patient' }],
  };
}

/** The bot's membership in its project, under the DoseSpot bot policy (the runner uses it instead of making one). */
export function doseSpotBotMembership(
  bot: { id: string; name?: string },
  projectId: string,
  policy: Reference,
): ProjectMembership {
  const profile = { reference: `Bot/${bot.id}`, display: bot.name };
  return {
    resourceType: 'ProjectMembership',
    project: { reference: `Project/${projectId}` },
    user: profile,
    profile,
    accessPolicy: { reference: policy.reference },
  } as ProjectMembership;
}

/**
 * Installs the three DoseSpot bots in a new project (the demo clinic): bundled from their
 * TypeScript now, so the seeded code is always the shipped code.
 */
export async function seedDoseSpotBots(session: RepositorySession, options: { projectId: string }): Promise<number> {
  const ctx = { projectId: options.projectId, author: systemAuthor };
  const bundled = await bundleDoseSpotBots();
  const policy = await session.create(ctx, doseSpotBotPolicy());
  for (const bot of bundled) {
    const created = (await session.create(ctx, doseSpotBotResource(bot))) as Bot;
    await session.create(
      ctx,
      doseSpotBotMembership({ id: created.id as string, name: created.name }, options.projectId, {
        reference: `AccessPolicy/${policy.id}`,
      }),
      { trusted: true },
    );
  }
  return bundled.length;
}
