import type { AccessPolicy } from '@medplum/fhirtypes';
import { canReadResourceType } from '../../data-provider/access';

export interface BulkCaller {
  policy: AccessPolicy | undefined;
  superAdmin: boolean;
  projectAdmin: boolean;
}

/** 'Bulk...' is offered to whoever may read the project's Bots (the dialog lists them). */
export function canOfferBulk(caller: BulkCaller): boolean {
  return caller.superAdmin || canReadResourceType(caller.policy, 'Bot');
}

/**
 * Whether the server will run bots for this caller (docs/binaries-and-bots.md, "Who may execute"):
 * super admins and project admins, else only a policy with an explicit, writable `Bot` entry.
 * The server decides; this only lets the dialog say so before anything is sent.
 */
export function canRunBots(caller: BulkCaller): boolean {
  if (caller.superAdmin || caller.projectAdmin) return true;
  return (caller.policy?.resource ?? []).some((entry) => entry.resourceType === 'Bot' && !entry.readonly);
}
