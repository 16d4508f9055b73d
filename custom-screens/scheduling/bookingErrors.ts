import { MAX_DURATION_MINUTES, MIN_DURATION_MINUTES, type BookingDraft, type BookingErrors } from './bookingDraft';
import { localDay } from '../../data-provider/rules';
import { localDateTime, slotOf } from './bookingSlot';

export const PAST_START = 'The start is in the past';
export const END_BEFORE_START = 'The end must be after the start';
export const DURATION_RANGE = `An appointment lasts ${MIN_DURATION_MINUTES} to ${MAX_DURATION_MINUTES} minutes`;

/**
 * The form's own rules, each message under the field it is about. `now` is passed in so that the
 * rule "no booking in the past" is testable; a request (proposed) may name a past time, since it
 * records what was asked for, not a slot taken.
 */
export function bookingErrors(draft: BookingDraft, now: Date): BookingErrors {
  const errors: BookingErrors = {};
  if (!draft.patient?.reference) errors.patient = 'Choose the patient';
  if (!draft.clinician?.reference) errors.clinician = 'Choose the clinician';
  if (!draft.date) errors.date = 'Date is required';
  else if (!localDateTime(draft.date, '00:00')) errors.date = 'Date must be a date (YYYY-MM-DD)';
  if (!draft.startTime) errors.startTime = 'Start time is required';
  else if (!localDateTime('2000-01-01', draft.startTime)) errors.startTime = 'Start time must be a time (HH:MM)';

  if (draft.endBy === 'endTime') {
    if (!draft.endTime) errors.endTime = 'End time is required';
    else if (!localDateTime('2000-01-01', draft.endTime)) errors.endTime = 'End time must be a time (HH:MM)';
  } else {
    const minutes = Number(draft.duration);
    if (!draft.duration || !Number.isInteger(minutes)) errors.duration = 'Duration is required';
    else if (minutes < MIN_DURATION_MINUTES || minutes > MAX_DURATION_MINUTES) errors.duration = DURATION_RANGE;
  }

  const slot = slotOf(draft);
  if (slot && draft.endBy === 'endTime' && !errors.endTime) {
    if (slot.end <= slot.start) errors.endTime = END_BEFORE_START;
    else if (slot.minutes < MIN_DURATION_MINUTES || slot.minutes > MAX_DURATION_MINUTES)
      errors.endTime = DURATION_RANGE;
  }
  if (slot && draft.kind === 'booked' && slot.start < now) {
    // Under the date when the whole day is gone: that is the field to change.
    if (draft.date < localDay(now)) errors.date = PAST_START;
    else errors.startTime = PAST_START;
  }
  return errors;
}
