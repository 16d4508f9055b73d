import type { Appointment, AppointmentParticipant, CodeableConcept } from '@medplum/fhirtypes';
import { localDay } from '../../data-provider/rules';
import { statusColor, type StatusColor } from '../../src/datatypes/statusColor';

/**
 * What the front desk may do with an appointment now, and the appointment each action writes.
 * Pure: the status, the start and `now` decide; the panel only shows and sends.
 */

export type AppointmentAction = 'book' | 'decline' | 'cancel' | 'checkIn' | 'fulfil' | 'noShow';

/** Why a request offered for booking cannot be booked as it stands (its time is set on the Edit tab). */
export type BookBlock = 'noTime' | 'pastTime';

export interface AppointmentActionPlan {
  /** The buttons, in the order shown. */
  actions: AppointmentAction[];
  /** Set when the appointment is a request whose Book must wait for a time (then `actions` has no 'book'). */
  bookBlocked?: BookBlock;
  /** fulfilled, cancelled, noshow, entered-in-error: nothing more to do. */
  terminal: boolean;
}

type Status = Appointment['status'];

const TERMINAL: readonly Status[] = ['fulfilled', 'cancelled', 'noshow', 'entered-in-error'];
/** Requests the clinic has not answered yet (waitlist: waiting for a slot to open). */
const REQUESTS: readonly Status[] = ['proposed', 'pending', 'waitlist'];
/** The patient is here. */
const PRESENT: readonly Status[] = ['arrived', 'checked-in'];

export function isTerminalStatus(status: Status): boolean {
  return TERMINAL.includes(status);
}

function startOf(appointment: Appointment): Date | undefined {
  if (!appointment.start) return undefined;
  const start = new Date(appointment.start);
  return Number.isNaN(start.getTime()) ? undefined : start;
}

/** Both times set (FHIR app-2: start and end come together; app-3: a booked appointment has them). */
function hasTime(appointment: Appointment): boolean {
  return !!startOf(appointment) && !!appointment.end && !Number.isNaN(new Date(appointment.end).getTime());
}

/**
 * The actions for the appointment at `now`:
 * - a request (proposed, pending, waitlist): Book — unless it has no time, or its time has passed
 *   (`bookBlocked`: the time is set on the Edit tab first) — and Decline;
 * - booked, start still ahead: Cancel, and Check in on the appointment's (local) day;
 * - booked, start passed: Mark fulfilled and No-show (how past visits leave "Upcoming"), and Check in
 *   still on the day itself (the patient who comes ten minutes late);
 * - arrived or checked in: Mark fulfilled; No-show too once the start has passed (a check-in made by mistake);
 * - fulfilled, cancelled, noshow, entered-in-error: nothing.
 */
export function appointmentActions(appointment: Appointment, now: Date = new Date()): AppointmentActionPlan {
  const status = appointment.status;
  if (isTerminalStatus(status)) return { actions: [], terminal: true };
  const start = startOf(appointment);
  const started = !!start && start.getTime() <= now.getTime();
  if (REQUESTS.includes(status)) {
    if (!hasTime(appointment)) return { actions: ['decline'], bookBlocked: 'noTime', terminal: false };
    if (started) return { actions: ['decline'], bookBlocked: 'pastTime', terminal: false };
    return { actions: ['book', 'decline'], terminal: false };
  }
  if (status === 'booked') {
    // A booked appointment without a start (app-3 forbids it, old data may have it): it can only be cancelled.
    if (!start) return { actions: ['cancel'], terminal: false };
    const today = localDay(start) === localDay(now);
    if (!started) return { actions: today ? ['checkIn', 'cancel'] : ['cancel'], terminal: false };
    return { actions: today ? ['checkIn', 'fulfil', 'noShow'] : ['fulfil', 'noShow'], terminal: false };
  }
  if (PRESENT.includes(status)) return { actions: started ? ['fulfil', 'noShow'] : ['fulfil'], terminal: false };
  return { actions: [], terminal: false };
}

/** HL7's appointment cancellation reasons (the example binding of R4 Appointment.cancelationReason). */
export const CANCELLATION_REASON_SYSTEM = 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason';
export const DECLINED_BY_CLINIC = 'Declined by the clinic';

/** "Declined by the clinic" (code `prov`, Provider), with the clerk's reason after it when one was typed. */
export function declineReason(typed?: string): CodeableConcept {
  const reason = typed?.trim();
  return {
    coding: [{ system: CANCELLATION_REASON_SYSTEM, code: 'prov', display: 'Provider' }],
    text: reason ? `${DECLINED_BY_CLINIC}: ${reason}` : DECLINED_BY_CLINIC,
  };
}

/** The reason typed in the Cancel dialog, as the cancellation reason's text. */
export function cancelReason(typed: string): CodeableConcept {
  return { text: typed.trim() };
}

/** Everything as read (participants, times, meta…) but the changed fields: the PUT overwrites nobody. */
function withoutReason(appointment: Appointment): Appointment {
  const copy = { ...appointment };
  // app-4: a cancellation reason belongs to cancelled and no-show appointments only.
  delete copy.cancelationReason;
  return copy;
}

function participantsAs(
  participants: AppointmentParticipant[] | undefined,
  change: (status: AppointmentParticipant['status']) => AppointmentParticipant['status'],
): AppointmentParticipant[] | undefined {
  return participants?.map((participant) =>
    participant.status ? { ...participant, status: change(participant.status) } : participant,
  );
}

/** Booked: every participant still to answer (needs-action, tentative) has now accepted (R4: booked = all confirmed). */
export function bookedAppointment(appointment: Appointment): Appointment {
  return {
    ...withoutReason(appointment),
    status: 'booked',
    participant: participantsAs(appointment.participant, (status) =>
      status === 'needs-action' || status === 'tentative' ? 'accepted' : status,
    ) as AppointmentParticipant[],
  };
}

/** The request refused: cancelled with "Declined by the clinic", each participant with a status declined. */
export function declinedAppointment(appointment: Appointment, typed?: string): Appointment {
  return {
    ...appointment,
    status: 'cancelled',
    cancelationReason: declineReason(typed),
    participant: participantsAs(appointment.participant, () => 'declined') as AppointmentParticipant[],
  };
}

/** Cancelled with the reason given (R4: a cancelled appointment says why in cancelationReason). */
export function cancelledAppointment(appointment: Appointment, typed: string): Appointment {
  return { ...appointment, status: 'cancelled', cancelationReason: cancelReason(typed) };
}

export function checkedInAppointment(appointment: Appointment): Appointment {
  return { ...withoutReason(appointment), status: 'arrived' };
}

export function fulfilledAppointment(appointment: Appointment): Appointment {
  return { ...withoutReason(appointment), status: 'fulfilled' };
}

export function noShowAppointment(appointment: Appointment): Appointment {
  return { ...appointment, status: 'noshow' };
}

const STATUS_WORDS: Record<Status, string> = {
  proposed: 'Requested',
  pending: 'Pending',
  waitlist: 'Waitlisted',
  booked: 'Booked',
  arrived: 'Arrived',
  'checked-in': 'Checked in',
  fulfilled: 'Fulfilled',
  cancelled: 'Cancelled',
  noshow: 'No-show',
  'entered-in-error': 'Entered in error',
};

/**
 * The status chip: a word (the colour alone says nothing to some readers) and the colour every
 * status badge of the app gives the code (app-spec §4: requests and booked blue, fulfilled green,
 * cancelled and no-show red, waitlist gray).
 */
export function statusChip(status: Status): { label: string; colour: StatusColor } {
  return { label: STATUS_WORDS[status] ?? String(status), colour: statusColor(status) };
}

/** The cancellation reason as one line: its text, else its codings' displays or codes. */
export function reasonText(reason: CodeableConcept | undefined): string | undefined {
  if (!reason) return undefined;
  if (reason.text?.trim()) return reason.text.trim();
  const codes = (reason.coding ?? []).map((coding) => coding.display ?? coding.code).filter(Boolean);
  return codes.length ? codes.join(', ') : undefined;
}
