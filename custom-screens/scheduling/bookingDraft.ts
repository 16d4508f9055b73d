import type { Reference } from '@medplum/fhirtypes';

/** The lengths offered; any other length is set with an end time. */
export const DURATION_CHOICES = [15, 20, 30, 45, 60] as const;
export const DEFAULT_DURATION_MINUTES = 20;
/** Shorter is a typo, longer is not one appointment (a whole working day at most). */
export const MIN_DURATION_MINUTES = 5;
export const MAX_DURATION_MINUTES = 480;

/** What the front desk has entered for a new appointment; times as the inputs hold them (local `HH:MM`). */
export interface BookingDraft {
  patient?: Reference;
  clinician?: Reference;
  /** `YYYY-MM-DD`, the clinic's local day. */
  date: string;
  /** `HH:MM`, local. */
  startTime: string;
  /** Whether the length is a duration or an end time. */
  endBy: 'duration' | 'endTime';
  /** Minutes, as the duration select holds it. */
  duration: string;
  /** `HH:MM`, local, same day as the start. */
  endTime: string;
  /** A v2-0276 code, or empty. */
  appointmentType: string;
  description: string;
  /** A request is an Appointment in status proposed: the "Appointment Requests" list. */
  kind: 'booked' | 'proposed';
}

export type BookingField = Exclude<keyof BookingDraft, 'endBy' | 'kind'>;

export type BookingErrors = Partial<Record<BookingField, string>>;

export const EMPTY_BOOKING_DRAFT: BookingDraft = {
  date: '',
  startTime: '',
  endBy: 'duration',
  duration: String(DEFAULT_DURATION_MINUTES),
  endTime: '',
  appointmentType: '',
  description: '',
  kind: 'booked',
};
