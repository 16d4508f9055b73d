import type { AccessPolicy, AccessPolicyResource, Reference } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';

/**
 * The demo project's policy for patients: their own compartment, the live-chat Subscription the
 * portal makes, and the medication catalogue.
 *
 * - A Subscription is in no patient's compartment, so the patient may make (and see) only the one
 *   that watches their own conversation — matched `:exact`: a string search matches a prefix, and
 *   `Communication?subject=Patient/me,Patient/other` starts with the allowed criteria.
 *   Notifications are still filtered by the compartment (server/realtime/subscriberAccess.ts).
 * - A Medication is in no patient's compartment either: an order that points at one
 *   (`medicationReference`, as imported Synthea records and many other systems write them) named
 *   no drug to the patient. Medication is catalogue data — code, form, ingredients, no subject — so
 *   a patient may read and search the project's Medications, and write none. What names a patient
 *   (the MedicationRequest) stays behind the compartment: `_has` and `_revinclude` from Medication
 *   only reach the patient's own orders (server/seed/patientPortalPolicy.test.ts replays both).
 */
export const patientPortalPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Patient portal',
  resource: [
    { resourceType: '*', compartment: { reference: '%profile' } },
    { resourceType: 'Subscription', criteria: 'Subscription?criteria:exact=Communication?subject=%profile' },
    { resourceType: 'Medication', readonly: true },
  ],
};

/**
 * The version of `patientPortalPolicy.resource`; a demo database records which one its policy was
 * last brought to (DemoState.patientPortalPolicyVersion), so that an upgrade is tried once.
 */
export const PATIENT_PORTAL_POLICY_VERSION = 3;

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
};

export type PortalPolicyUpgrade =
  /** The stored policy had the entries of an earlier seed: they are now the current ones. */
  | 'upgraded'
  /** It already had the current entries. */
  | 'current'
  /** Someone changed it since it was seeded: left as it is (their policy, their decision). */
  | 'edited'
  /** The project names no default patient policy (or it is gone): nothing to bring up to date. */
  | 'missing';

/**
 * Brings the demo project's patient policy (the project's `defaultPatientAccessPolicy`, which the
 * seeded patient membership names too) to the current entries when it still has exactly the entries
 * of an earlier seed. A policy the clinic edited is left alone: overwriting it could undo a
 * narrowing they chose; the caller says what to add instead.
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
  if (!stored) return 'missing';
  const entries = canonical(stored.resource ?? []);
  if (entries === canonical(patientPortalPolicy.resource ?? [])) return 'current';
  if (!Object.values(earlierPatientPortalEntries).some((earlier) => canonical(earlier) === entries)) return 'edited';
  const resource = structuredClone(patientPortalPolicy.resource);
  await session.update({ projectId, author: systemAuthor }, { ...stored, resource });
  return 'upgraded';
}

/** JSON with object keys sorted: the database does not keep a resource's key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
