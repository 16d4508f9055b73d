import type { Appointment } from '@medplum/fhirtypes';
import type { VitalStatus } from '../../../data-provider/rules';

/**
 * Statuses of an appointment that still expects the patient: asked for, being arranged, booked,
 * on the waiting list, or the patient arrived / checked in. The rest — fulfilled, cancelled,
 * noshow, entered-in-error — are over, one way or another.
 */
export const OPEN_APPOINTMENT_STATUSES = [
  'proposed',
  'pending',
  'booked',
  'arrived',
  'checked-in',
  'waitlist',
] as const;

const open: ReadonlySet<string> = new Set(OPEN_APPOINTMENT_STATUSES);

const PARTIAL_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * The first moment certainly after the death. A date without a time covers its whole day (month,
 * year): an appointment earlier that day may have happened before the patient died, so only the
 * next day on is certainly after. Never later than `now`: what is still to come is left open
 * whenever the patient died — also when no date is recorded (`deceasedBoolean`) or it is unreadable.
 */
export function certainlyAfterDeath(patient: VitalStatus, now: Date): Date {
  const recorded = patient.deceasedDateTime;
  if (!recorded) return now;
  const partial = PARTIAL_DATE.exec(recorded);
  let after: Date;
  if (partial) {
    const [, year, month, day] = partial;
    if (day) after = new Date(Number(year), Number(month) - 1, Number(day) + 1);
    else if (month) after = new Date(Number(year), Number(month), 1);
    else after = new Date(Number(year) + 1, 0, 1);
  } else {
    after = new Date(recorded);
  }
  if (Number.isNaN(after.getTime())) return now;
  return after < now ? after : now;
}

/**
 * Whether a deceased patient's appointment is left open: its status still expects the patient and
 * it starts certainly after the death — upcoming, or (recorded late) one that came after the death
 * and was never closed. One without a start (a request, the waiting list) is still open: it names
 * no time that could have passed. An unreadable start counts too, so that a person looks at it.
 */
export function isLeftOpenAfterDeath(appointment: Appointment, patient: VitalStatus, now: Date): boolean {
  if (!open.has(appointment.status)) return false;
  if (!appointment.start) return true;
  const start = Date.parse(appointment.start);
  return Number.isNaN(start) || start >= certainlyAfterDeath(patient, now).getTime();
}

/** The appointments left open after the death, soonest first; those without a start last. */
export function appointmentsLeftOpen(
  appointments: readonly Appointment[],
  patient: VitalStatus,
  now: Date,
): Appointment[] {
  const startOf = (appointment: Appointment) => {
    const start = appointment.start ? Date.parse(appointment.start) : Number.NaN;
    return Number.isNaN(start) ? Number.POSITIVE_INFINITY : start;
  };
  return appointments
    .filter((appointment) => isLeftOpenAfterDeath(appointment, patient, now))
    .sort((a, b) => (startOf(a) === startOf(b) ? 0 : startOf(a) < startOf(b) ? -1 : 1));
}
