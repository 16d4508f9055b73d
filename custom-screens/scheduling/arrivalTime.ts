import type { Appointment } from '@medplum/fhirtypes';
import { HERE_STATUSES } from './hereTodaySearch';

const isHere = (appointment: Appointment) => (HERE_STATUSES as readonly string[]).includes(appointment.status);

const updatedAt = (appointment: Appointment) => Date.parse(appointment.meta?.lastUpdated ?? '');

/**
 * When the patient arrived: the time of the version that first put the appointment in its present
 * checked-in state. FHIR R4's Appointment has no arrival field, and the desk's Check in writes only
 * the status (appointmentActionRules.ts), so the history is the record of it. A later edit of the
 * arrived appointment (a note, arrived → checked-in) does not move the arrival; a check-in undone
 * and done again counts from the second one. Without a usable history, the appointment's last change
 * is the best guess there is. Versions are ordered by when they were written: their ids are not
 * numbers on this server (UUIDs), and a history answers newest first, which breaks a tie.
 */
export function arrivalTime(current: Appointment, history: readonly Appointment[] | undefined): string | undefined {
  const versions = [...(history ?? [])]
    .filter((version) => Number.isFinite(updatedAt(version)))
    .sort((a, b) => updatedAt(b) - updatedAt(a));
  let arrival: string | undefined;
  for (const version of versions) {
    if (!isHere(version)) break;
    arrival = version.meta?.lastUpdated ?? arrival;
  }
  return arrival ?? current.meta?.lastUpdated;
}
