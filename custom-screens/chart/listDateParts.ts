import { formatDate, formatDateTime } from '../../data-provider/formatting';

/**
 * A date as a chart list shows it, in the parts a line may break between (never inside one): the
 * day, and the time of day when it has one. `dateTime` is the FHIR value shown. An empty `day`
 * means the time alone (an end on the day it started, which stands beside it).
 */
export interface ListDateParts {
  dateTime: string;
  day: string;
  time?: string;
}

/**
 * The parts of a FHIR date or dateTime: a date without a time reads as a day, an instant as its
 * day and time — unless `withTime` is false, where the time of day tells the reader nothing (when
 * an order was written). Undefined for no value.
 */
export function listDateParts(value: string | undefined, withTime = true): ListDateParts | undefined {
  if (!value) return undefined;
  const day = formatDate(value);
  const hasTime = value.length > 10 && !Number.isNaN(Date.parse(value));
  if (!withTime || !hasTime) return { dateTime: value, day };
  return { dateTime: value, day, time: formatDateTime(value, undefined, { timeStyle: 'short' }) };
}

/** An end on the same day as its start reads as its time alone: "10:00 AM" to "10:45 AM". */
export function endOnSameDay(end: ListDateParts, start: ListDateParts | undefined): ListDateParts {
  return start?.time && end.time && start.day === end.day ? { ...end, day: '' } : end;
}

/** The parts as one line of text ("5 Jun 2015, 9:51 AM"), as the list reads them out. */
export function listDateText(parts: ListDateParts): string {
  return [parts.day, parts.time].filter(Boolean).join(', ');
}
