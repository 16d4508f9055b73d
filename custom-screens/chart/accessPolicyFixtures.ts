/** Test fixtures (not part of the public surface): the access policies the chart's tests sign in under. */
import type { AccessPolicy } from '@medplum/fhirtypes';

/**
 * The demo clinic's "Front desk" policy (ben@demo.hearth.example) and "Patient portal" policy, as
 * the seed writes them: imported, not copied, so that a change to the seed reaches these tests.
 */
export { frontDeskPolicy, patientPortalPolicy } from '../../config/access/demoAccessPolicies';

/** A clinician's policy: every type of the project. */
export const clinicianPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Clinician',
  resource: [{ resourceType: '*' }],
};
