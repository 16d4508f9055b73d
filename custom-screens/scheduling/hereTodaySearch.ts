import { isoWithOffset } from './bookingSlot';

/** The statuses of a patient who is in the building: checked in at the desk, not yet seen off. */
export const HERE_STATUSES = ['arrived', 'checked-in'] as const;

/** A busy clinic's day fits on one page; the view says when there are more than it shows. */
export const HERE_TODAY_LIMIT = 100;

/** Midnight at the start of `now`'s local day, and of the next one. */
export function localDayBounds(now: Date): { start: Date; end: Date } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { start, end };
}

/**
 * Today's appointments whose patient has checked in, soonest first, with the patients and
 * clinicians they name (`_include`): imported appointments carry references without a display.
 * "Today" is the desk's own calendar day (Appointment `date` is the start).
 */
export function hereTodaySearch(now: Date): Record<string, string | string[]> {
  const { start, end } = localDayBounds(now);
  return {
    date: [`ge${isoWithOffset(start)}`, `lt${isoWithOffset(end)}`],
    status: HERE_STATUSES.join(','),
    _sort: 'date',
    _include: 'Appointment:actor',
    _count: String(HERE_TODAY_LIMIT),
  };
}
