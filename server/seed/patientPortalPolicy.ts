import type { AccessPolicy, AccessPolicyResource, Reference } from '@medplum/fhirtypes';
import { fieldsFixedByReadMark, readMarkStatuses } from '../../data-provider/access';
import type { RepositorySession } from '../fhir/repository';
import { upgradeSeededPolicy, type SeededPolicyUpgrade } from './seededPolicyUpgrade';

/**
 * The demo project's policy for patients: their own record to read, and to write only what the
 * portal writes — their chat messages, the read mark on a message to them, and the live-chat
 * Subscription — plus the medication catalogue to read.
 *
 * - Their compartment is read-only: a patient who could write it could make up a potassium of 9.9,
 *   change an order or delete a result (server/seed/patientPortalPolicy.test.ts replays each).
 * - A type's own entries replace the `*` entry for it (data-provider/access/accessPolicy.ts), so
 *   Communication repeats the read of the compartment. Its write entries are OR-ed per interaction,
 *   and a write must match one granting it on the stored version (update, delete) and on the version
 *   written (server/fhir/repository.ts checkWritable, checkWritten). She may **create** a message
 *   from her, about her, not yet read (`status=in-progress`), and **update** a message to her about
 *   her — the read mark (custom-screens/chat/chatMessages.ts markedRead). She deletes none, changes
 *   none of her own once sent, and cannot create a message in a clinician's name (the update entry
 *   grants no create). The read mark's entry keeps every other field of the message as it was
 *   (`readonlyFields`, data-provider/access/readMarkFields.ts) and its status in-progress or
 *   completed: marking a message read cannot rewrite what the clinic said, or hide it.
 * - A Subscription is in no patient's compartment, so the patient may make (and see) only the one
 *   that watches their own conversation — matched `:exact`: a string search matches a prefix, and
 *   `Communication?subject=Patient/me,Patient/other` starts with the allowed criteria — over a
 *   websocket (a `rest-hook` to `Bot/{id}` would run a bot of the clinic on her messages), and
 *   only the ones she made (`author`): a clinician's Subscription on her conversation has the same
 *   criteria, and is not hers to read, change or delete. Notifications are still filtered by the
 *   compartment (server/realtime/subscriberAccess.ts).
 * - A Medication is in no patient's compartment either: an order that points at one
 *   (`medicationReference`, as imported Synthea records and many other systems write them) named
 *   no drug to the patient. Medication is catalogue data — code, form, ingredients, no subject — so
 *   a patient may read and search the project's Medications, and write none. What names a patient
 *   (the MedicationRequest) stays behind the compartment: `_has` and `_revinclude` from Medication
 *   only reach the patient's own orders (server/seed/patientPortalPolicy.test.ts replays both).
 * - No Media or Binary writes: the portal offers no paperclip (custom-screens/chat/ChatPanel.tsx);
 *   the files the clinic sends are read through the compartment their security context gives them.
 */
export const patientPortalPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Patient portal',
  resource: [
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
      criteria: `Communication?recipient=%profile&subject=%profile&status=${readMarkStatuses}`,
      interaction: ['update'],
      readonlyFields: [...fieldsFixedByReadMark],
    },
    {
      resourceType: 'Subscription',
      criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
    },
    { resourceType: 'Medication', readonly: true },
  ],
};

/**
 * The version of `patientPortalPolicy.resource`; a demo database records which one its policy was
 * last brought to (DemoState.patientPortalPolicyVersion), so that an upgrade is tried once.
 */
export const PATIENT_PORTAL_POLICY_VERSION = 6;

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
