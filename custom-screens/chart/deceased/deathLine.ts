import { readableDate } from '../../../data-provider/formatting';
import type { VitalStatus } from '../../../data-provider/rules';

/** The notice's first line: when the patient died as people read dates, or that no date is recorded. */
export function deathLine(patient: VitalStatus): string {
  return patient.deceasedDateTime
    ? `Died ${readableDate(patient.deceasedDateTime)}`
    : 'Deceased (no date of death recorded)';
}
