import type { Patient } from '@medplum/fhirtypes';

/** The part of a Patient that says whether (and when) they died. */
export type VitalStatus = Pick<Patient, 'deceasedBoolean' | 'deceasedDateTime'>;

/**
 * deceased[x] is a choice: a date alone says the patient died, and `deceasedBoolean: false` is an
 * explicit "alive" (imports often write it), not a missing value.
 */
export function isDeceased(patient: VitalStatus | undefined): boolean {
  return patient?.deceasedBoolean === true || Boolean(patient?.deceasedDateTime);
}
