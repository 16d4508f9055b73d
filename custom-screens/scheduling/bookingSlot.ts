import type { BookingDraft } from './bookingDraft';

/** When an appointment runs: local instants and its length in whole minutes. */
export interface BookingSlot {
  start: Date;
  end: Date;
  minutes: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;

/** `date` (`YYYY-MM-DD`) at `time` (`HH:MM`) on the browser's clock; undefined for anything else. */
export function localDateTime(date: string, time: string): Date | undefined {
  const day = DATE.exec(date);
  const clock = TIME.exec(time);
  if (!day || !clock) return undefined;
  const [year, month, dayOfMonth, hours, minutes] = [day[1], day[2], day[3], clock[1], clock[2]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || hours > 23 || minutes > 59) return undefined;
  const value = new Date(year, month - 1, dayOfMonth, hours, minutes);
  // new Date rolls 31 February over into March: a day that does not exist is not a date.
  return value.getDate() === dayOfMonth && value.getMonth() === month - 1 ? value : undefined;
}

/** The end a duration gives: `minutes` after `start`. */
export function endFromDuration(start: Date, minutes: number): Date {
  return new Date(start.getTime() + minutes * 60_000);
}

/**
 * The slot the draft describes, or undefined while its date and times do not make one. An end
 * time is on the start's day; whether it comes after the start is for the validation to say.
 */
export function slotOf(draft: BookingDraft): BookingSlot | undefined {
  const start = localDateTime(draft.date, draft.startTime);
  if (!start) return undefined;
  if (draft.endBy === 'endTime') {
    const end = localDateTime(draft.date, draft.endTime);
    if (!end) return undefined;
    return { start, end, minutes: Math.round((end.getTime() - start.getTime()) / 60_000) };
  }
  const minutes = Number(draft.duration);
  if (!Number.isInteger(minutes)) return undefined;
  return { start, end: endFromDuration(start, minutes), minutes };
}

const pad = (value: number) => String(Math.abs(value)).padStart(2, '0');

/**
 * `2030-01-15T09:00:00+01:00`: the instant with the browser's own offset, not toISOString's UTC,
 * so that the stored appointment still reads as the local time the desk booked.
 */
export function isoWithOffset(value: Date): string {
  const offset = -value.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const date = `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  const time = `${pad(value.getHours())}:${pad(value.getMinutes())}:${pad(value.getSeconds())}`;
  return `${date}T${time}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}
