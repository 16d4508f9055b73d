import type { AccessPolicy } from '@medplum/fhirtypes';

/** Who is asking to run a bot (from the signed-in caller). */
export interface BotExecutor {
  superAdmin: boolean;
  projectAdmin: boolean;
  policy?: AccessPolicy;
}

/**
 * May this caller run bots at all? Super admins and project admins may run any bot they can read.
 * Any other member needs an access policy with an explicit, writable `Bot` entry (not `*`, not
 * `readonly`); its criteria or compartment then decide which bots (checked against the bot itself).
 * A member without a policy is not a bot operator: reading the project is not running code in it.
 */
export function botPolicyEntries(executor: BotExecutor): 'any' | 'policy' | 'none' {
  if (executor.superAdmin || executor.projectAdmin) return 'any';
  const entries = (executor.policy?.resource ?? []).filter((entry) => entry.resourceType === 'Bot' && !entry.readonly);
  return entries.length > 0 ? 'policy' : 'none';
}
