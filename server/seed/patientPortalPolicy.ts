import type { AccessPolicy, AccessPolicyResource, Reference } from '@medplum/fhirtypes';
import { patientPortalPolicy } from '../../config/access/demoAccessPolicies';
import type { RepositorySession } from '../fhir/repository';
import { upgradeSeededPolicy, type SeededPolicyUpgrade } from './seededPolicyUpgrade';

/** The demo project's policy for patients (the rules, and why: config/access/demoAccessPolicies.ts). */
export { patientPortalPolicy };

/**
 * The version of `patientPortalPolicy.resource`; a demo database records which one its policy was
 * last brought to (DemoState.patientPortalPolicyVersion), so that an upgrade is tried once.
 */
export const PATIENT_PORTAL_POLICY_VERSION = 7;

/**
 * The entries earlier versions of the seed wrote, by version: a stored policy whose entries are
 * exactly one of these is the seed's own, untouched by the clinic, and is safe to bring up to date.
 */
const earlierPatientPortalEntries: Record<number, AccessPolicyResource[]> = {
  // Before 2026-11-28: the Subscription criteria matched as a prefix (another patient's chat could ride along).
  1: [
    { resourceType: '*', compartment: { reference: '%profile' } },
    { resourceType: 'Subscription', criteria: 'Subscription?criteria=Communication?subject=%profile' },
  ],
  // Before the Medication entry: a medicationReference named no drug to the patient.
  2: [
    { resourceType: '*', compartment: { reference: '%profile' } },
    { resourceType: 'Subscription', criteria: 'Subscription?criteria:exact=Communication?subject=%profile' },
  ],
  // Before the compartment was read-only: a patient could create, change and delete her own clinical records.
  3: [
    { resourceType: '*', compartment: { reference: '%profile' } },
    { resourceType: 'Subscription', criteria: 'Subscription?criteria:exact=Communication?subject=%profile' },
    { resourceType: 'Medication', readonly: true },
  ],
  // Before the Communication entries listed their interactions: she could delete a message to her,
  // or create one in a clinician's name to herself.
  4: [
    { resourceType: '*', compartment: { reference: '%profile' }, readonly: true },
    { resourceType: 'Communication', compartment: { reference: '%profile' }, readonly: true },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?sender=%profile&subject=%profile&status=in-progress',
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?recipient=%profile&subject=%profile',
    },
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
    },
    { resourceType: 'Medication', readonly: true },
  ],
  // Before the read mark's entry fixed the message's other fields: marking a message read, she could
  // rewrite its text or sender, or set it entered-in-error.
  5: [
    { resourceType: '*', compartment: { reference: '%profile' }, readonly: true },
    { resourceType: 'Communication', compartment: { reference: '%profile' }, readonly: true },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?sender=%profile&subject=%profile&status=in-progress',
      interaction: ['create'],
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?recipient=%profile&subject=%profile',
      interaction: ['update'],
    },
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
    },
    { resourceType: 'Medication', readonly: true },
  ],
  // Before the care team's working material in her compartment was narrowed: she read the
  // clinician's visit-note drafts, the staff's Tasks about her (their notes too) and messages
  // between staff about her.
  6: [
    { resourceType: '*', compartment: { reference: '%profile' }, readonly: true },
    { resourceType: 'Communication', compartment: { reference: '%profile' }, readonly: true },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?sender=%profile&subject=%profile&status=in-progress',
      interaction: ['create'],
    },
    {
      resourceType: 'Communication',
      compartment: { reference: '%profile' },
      criteria: 'Communication?recipient=%profile&subject=%profile&status=in-progress,completed',
      interaction: ['update'],
      // data-provider/access/readMarkFields.ts as it was then, written out: a change there is not a change of v6.
      readonlyFields: [
        'implicitRules',
        'language',
        'text',
        'contained',
        'extension',
        'modifierExtension',
        'identifier',
        'instantiatesCanonical',
        'instantiatesUri',
        'basedOn',
        'partOf',
        'inResponseTo',
        'statusReason',
        'category',
        'priority',
        'medium',
        'subject',
        'topic',
        'about',
        'encounter',
        'sent',
        'recipient',
        'sender',
        'reasonCode',
        'reasonReference',
        'payload',
        'note',
      ],
    },
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
    },
    { resourceType: 'Medication', readonly: true },
  ],
};

export type PortalPolicyUpgrade = SeededPolicyUpgrade;

/**
 * Brings the demo project's patient policy (the project's `defaultPatientAccessPolicy`, which the
 * seeded patient membership names too) to the current entries when it still has exactly the entries
 * of an earlier seed (upgradeSeededPolicy).
 */
export async function upgradePatientPortalPolicy(
  session: RepositorySession,
  projectId: string,
): Promise<PortalPolicyUpgrade> {
  const project = (await session.read('Project', projectId).catch(() => undefined)) as
    { defaultPatientAccessPolicy?: Reference } | undefined;
  const id = /^AccessPolicy\/([^/]+)$/.exec(project?.defaultPatientAccessPolicy?.reference ?? '')?.[1];
  if (!id) return 'missing';
  const stored = (await session.read('AccessPolicy', id).catch(() => undefined)) as AccessPolicy | undefined;
  return upgradeSeededPolicy(session, projectId, stored, {
    current: patientPortalPolicy.resource ?? [],
    earlier: Object.values(earlierPatientPortalEntries),
  });
}
