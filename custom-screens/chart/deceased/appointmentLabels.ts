import type { Appointment } from '@medplum/fhirtypes';
import { formatCodeableConcept, formatDateTime, readableDate } from '../../../data-provider/formatting';

/** What the appointment is for, as the Appointments tab names it: its description, else its service or type. */
export function appointmentTitle(appointment: Appointment): string {
  return (
    appointment.description ||
    formatCodeableConcept(appointment.serviceType?.[0]) ||
    formatCodeableConcept(appointment.appointmentType) ||
    'Appointment'
  );
}

/** When it starts, as the notice's death date reads ("12 Mar 2026, 2:00 PM"); a request may name no time yet. */
export function appointmentWhen(appointment: Appointment): string {
  const start = appointment.start;
  if (!start) return 'No date set';
  const day = readableDate(start);
  const hasTime = start.length > 10 && !Number.isNaN(Date.parse(start));
  return hasTime ? `${day}, ${formatDateTime(start, undefined, { timeStyle: 'short' })}` : day;
}
