import type { Reference, SmartAppLaunch } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { readReference } from './accountStore';
import { launchReference, launchUseRefusal, takenByAnotherLogin, type LaunchRefusal } from './launchContext';

/**
 * Whether a sign-in continued from a session could take up an EHR launch, as the `/oauth` page's
 * account chooser asks before it offers that account: `unknown` when the launch is none of the
 * session's project (or none at all: the two read alike, as at the token endpoint), otherwise the
 * token endpoint's own rule (launchContext.ts) for a first grant now. The token endpoint still
 * decides; this only keeps the page from offering an account it would refuse.
 */
export type LaunchAvailability = { usable: true } | { usable: false; reason: LaunchRefusal | 'unknown' };

export async function launchAvailability(
  session: RepositorySession,
  launchId: string,
  who: { projectId: string; profile: Reference },
  now: number,
): Promise<LaunchAvailability> {
  const launch = await readReference<SmartAppLaunch>(session, launchReference(launchId));
  if (!launch || launch.meta?.project !== who.projectId) return { usable: false, reason: 'unknown' };
  const refusal = launchUseRefusal(launch, who.profile, true, now);
  if (refusal) return { usable: false, reason: refusal };
  if (await takenByAnotherLogin(session, launch)) return { usable: false, reason: 'used' };
  return { usable: true };
}
