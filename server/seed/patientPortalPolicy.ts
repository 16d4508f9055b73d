import type { AccessPolicy } from '@medplum/fhirtypes';

/**
 * The demo project's policy for patients: their own compartment, and the live-chat Subscription
 * the portal makes. A Subscription is in no patient's compartment, so the patient may make (and
 * see) only the one that watches their own conversation — matched `:exact`: a string search
 * matches a prefix, and `Communication?subject=Patient/me,Patient/other` starts with the allowed
 * criteria. Notifications are still filtered by the compartment (server/realtime/subscriberAccess.ts).
 */
export const patientPortalPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Patient portal',
  resource: [
    { resourceType: '*', compartment: { reference: '%profile' } },
    { resourceType: 'Subscription', criteria: 'Subscription?criteria:exact=Communication?subject=%profile' },
  ],
};
