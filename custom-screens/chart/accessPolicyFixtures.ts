/** Test fixtures (not part of the public surface): the access policies the chart's tests sign in under. */
import type { AccessPolicy } from '@medplum/fhirtypes';

/** The demo clinic's "Front desk" policy (server/seed/demoAccounts.ts), as ben@demo.hearth.example is under it. */
export const frontDeskPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Front desk',
  resource: [
    { resourceType: 'Patient', readonlyFields: ['identifier'] },
    { resourceType: 'Appointment' },
    { resourceType: 'Schedule' },
    { resourceType: 'Slot' },
    { resourceType: 'Communication' },
    { resourceType: 'Task', criteria: 'Task?status=requested,ready,in-progress,on-hold,completed' },
    { resourceType: 'Practitioner', readonly: true },
    { resourceType: 'Organization', readonly: true },
    { resourceType: 'Encounter', readonly: true, hiddenFields: ['reasonCode', 'diagnosis'] },
  ],
};

/** A clinician's policy: every type of the project. */
export const clinicianPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Clinician',
  resource: [{ resourceType: '*' }],
};

/** The demo project's patient policy (server/seed/patientPortalPolicy.ts): their own compartment. */
export const patientPortalPolicy: AccessPolicy = {
  resourceType: 'AccessPolicy',
  name: 'Patient portal',
  resource: [{ resourceType: '*', compartment: { reference: '%profile' } }],
};
