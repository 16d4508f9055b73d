import type { AccessPolicy } from '@medplum/fhirtypes';
import { canReadResourceType, writableEntriesFor } from '../../data-provider/access';

/**
 * Whether the server will accept this user's websocket Subscription for a type: the policy must let
 * them read the type and create a Subscription outside any compartment or criteria (a Subscription
 * is in no patient's compartment, so a patient's `*` compartment entry does not cover it). Without
 * it the live counts stay plain counts, and the page sends no Subscription the server answers 403.
 */
export function canWatchLive(policy: AccessPolicy | undefined, superAdmin: boolean, resourceType: string): boolean {
  if (superAdmin || !policy) return true;
  if (!canReadResourceType(policy, resourceType)) return false;
  return writableEntriesFor(policy, 'Subscription').some((entry) => !entry.compartment && !entry.criteria);
}
