import type { Appointment } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import type { BookingSlot } from './bookingSlot';

/** Statuses that hold a slot: a proposed, pending, cancelled or no-show appointment does not. */
export const SLOT_HOLDING_STATUSES = ['booked', 'arrived', 'checked-in'] as const;

/** Another appointment that takes part of the slot, and whose diary it is in. */
export interface AppointmentClash {
  appointment: Appointment;
  start: Date;
  end: Date;
  /** The clinician's when they are in it (even if the patient is too), else the patient's. */
  party: 'clinician' | 'patient';
}

interface Interval {
  start: Date;
  end: Date;
}

/**
 * Whether two intervals share time. Half-open: one ending at 9:20 and the next starting at 9:20
 * are back to back, not a clash.
 */
export function overlaps(a: Interval, b: Interval): boolean {
  return a.start < b.end && b.start < a.end;
}

/** When an existing appointment runs: its end, else its start plus its minutes; undefined when not known. */
export function intervalOf(appointment: Appointment): Interval | undefined {
  const start = appointment.start ? new Date(appointment.start) : undefined;
  if (!start || Number.isNaN(start.getTime())) return undefined;
  if (appointment.end) {
    const end = new Date(appointment.end);
    return Number.isNaN(end.getTime()) ? undefined : { start, end };
  }
  if (appointment.minutesDuration)
    return { start, end: new Date(start.getTime() + appointment.minutesDuration * 60_000) };
  return undefined;
}

const involves = (appointment: Appointment, reference: string | undefined) =>
  !!reference && (appointment.participant ?? []).some((participant) => participant.actor?.reference === reference);

/**
 * The appointments among `candidates` (the searches' results, possibly the same one twice) that
 * hold time inside `slot` and involve the clinician or the patient, earliest first.
 */
export function findClashes(
  slot: BookingSlot,
  candidates: readonly Appointment[],
  who: { clinician?: string; patient?: string },
): AppointmentClash[] {
  const seen = new Set<string>();
  const clashes: AppointmentClash[] = [];
  for (const appointment of candidates) {
    const key = appointment.id ?? JSON.stringify(appointment);
    if (seen.has(key)) continue;
    seen.add(key);
    if (!(SLOT_HOLDING_STATUSES as readonly string[]).includes(appointment.status)) continue;
    const interval = intervalOf(appointment);
    if (!interval || !overlaps(slot, interval)) continue;
    const party = involves(appointment, who.clinician)
      ? 'clinician'
      : involves(appointment, who.patient)
        ? 'patient'
        : undefined;
    if (party) clashes.push({ appointment, ...interval, party });
  }
  return clashes.sort((a, b) => a.start.getTime() - b.start.getTime());
}

const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

function otherParty(appointment: Appointment, type: 'Patient' | 'Practitioner', names: ReadonlyMap<string, string>) {
  const actor = (appointment.participant ?? [])
    .map((participant) => participant.actor)
    .find((reference) => reference?.reference?.startsWith(`${type}/`));
  return actor ? actor.display || names.get(actor.reference ?? '') : undefined;
}

/**
 * The warning's line for one clash: "Alice Carter already has Wendy Littel at 9:00 AM–9:20 AM", or
 * from the patient's side "Wendy Littel already has an appointment with Bob Lee at …". `names`
 * holds what the search's `_include` brought, for participants stored without a display.
 */
export function clashMessage(
  clash: AppointmentClash,
  names: { clinician: string; patient: string },
  included: ReadonlyMap<string, string> = new Map(),
  locale?: string,
): string {
  const at = `${formatDateTime(clash.start.toISOString(), locale, TIME)}–${formatDateTime(clash.end.toISOString(), locale, TIME)}`;
  if (clash.party === 'clinician') {
    const patient = otherParty(clash.appointment, 'Patient', included);
    return `${names.clinician} already has ${patient ?? 'an appointment'} at ${at}`;
  }
  const clinician = otherParty(clash.appointment, 'Practitioner', included);
  return `${names.patient} already has an appointment${clinician ? ` with ${clinician}` : ''} at ${at}`;
}
