import type { AccessPolicy, AccessPolicyResource } from '@medplum/fhirtypes';
import { frontDeskPolicy } from '../../config/access/demoAccessPolicies';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { upgradeSeededPolicy, type SeededPolicyUpgrade } from './seededPolicyUpgrade';

/**
 * What the seed's front desk policy had before the live chat. Never change it: an upgrade recognises
 * the seed's untouched policy by these entries.
 */
const frontDeskEntriesV1: AccessPolicyResource[] = [
  { resourceType: 'Patient', readonlyFields: ['identifier'] },
  { resourceType: 'Appointment' },
  { resourceType: 'Schedule' },
  { resourceType: 'Slot' },
  { resourceType: 'Communication' },
  { resourceType: 'Task', criteria: 'Task?status=requested,ready,in-progress,on-hold,completed' },
  { resourceType: 'Practitioner', readonly: true },
  { resourceType: 'Organization', readonly: true },
  { resourceType: 'Encounter', readonly: true, hiddenFields: ['reasonCode', 'diagnosis'] },
];

/** The demo clinic's front desk (ben@…): scheduling, patients' contact details and their messages. */
export { frontDeskPolicy };

/** What an edited front desk policy needs to register patients (the start's log names them). */
export const frontDeskPatientEntries = (frontDeskPolicy.resource ?? []).filter(
  (entry) => entry.resourceType === 'Patient',
);

/** What an edited front desk policy needs for a live chat (the start's log names it). */
export const frontDeskLiveChatEntry = frontDeskPolicy.resource?.at(-1) as AccessPolicyResource;

/**
 * The version of `frontDeskPolicy.resource`; a demo database records which one its policy was last
 * brought to (DemoState.frontDeskPolicyVersion), so that an upgrade is tried once.
 */
export const FRONT_DESK_POLICY_VERSION = 3;

/** The entries earlier versions of the seed wrote, by version (see earlierPatientPortalEntries). */
const earlierFrontDeskEntries: Record<number, AccessPolicyResource[]> = {
  // Before the live chat's Subscription: front desk got 403 and saw no new message until a reload.
  1: frontDeskEntriesV1,
  // Before the Patient entry was split by interaction: the MRN, read-only, refused every new patient.
  2: [
    ...frontDeskEntriesV1,
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria=Communication?subject=Patient/&type=websocket&author=%profile',
    },
  ],
};

/**
 * Brings the demo project's "Front desk" policy to the current entries when it still has exactly
 * the entries of an earlier seed (upgradeSeededPolicy). It is found by its name among the
 * policies the project's members are under; a clinic that renamed it made it theirs.
 */
export async function upgradeFrontDeskPolicy(
  session: RepositorySession,
  projectId: string,
): Promise<SeededPolicyUpgrade> {
  // Policies of that name that a member of the project is under (the seed's names Ben's membership).
  const query = {
    'name:exact': frontDeskPolicy.name as string,
    '_has:ProjectMembership:access-policy:project': `Project/${projectId}`,
  };
  const found = await session.search(parseSearchRequest('AccessPolicy', query, session.registry));
  const ours = found.resources.filter((policy) => policy.meta?.project === projectId) as AccessPolicy[];
  if (ours.length === 0) return 'missing';
  const seed = { current: frontDeskPolicy.resource ?? [], earlier: Object.values(earlierFrontDeskEntries) };
  const outcomes: SeededPolicyUpgrade[] = [];
  for (const stored of ours) outcomes.push(await upgradeSeededPolicy(session, projectId, stored, seed));
  if (outcomes.includes('upgraded')) return 'upgraded';
  return outcomes.includes('current') ? 'current' : 'edited';
}
