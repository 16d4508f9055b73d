import { readableDate } from './readableDates';

/**
 * Dates and times for display. Without a locale or options every screen shows one house style,
 * '7 Mar 2020' and '7 Mar 2020, 2:30 PM' (readableDates.ts): day before month, the month as a word,
 * so that a date reads the same in every browser and is never taken for another (03/07 vs 07/03).
 * A caller that names a locale or options gets Intl's formatting. A FHIR date ('2020', '2020-03', '2020-03-07') is a calendar day,
 * not an instant: JavaScript's Date would read '2020-03-07' as UTC midnight and a viewer west of
 * Greenwich would see 6 March. Date-only values are therefore formatted in UTC from their own
 * parts, and only values with a time are converted to the viewer's zone.
 */

const datePattern = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * A FHIR date or dateTime as a date: '7 Mar 2020', 'Mar 2020' or '2020' by precision ('Mar 7, 2020'
 * with the en-US locale). `options`
 * apply to full dates and dateTimes; a partial date keeps its precision, since showing '1' for an
 * unknown day would invent a fact. Unparseable input is returned as it is, so nothing is hidden.
 */
export function formatDate(value: string | undefined, locale?: string, options?: Intl.DateTimeFormatOptions): string {
  if (!value) return '';
  if (!locale && !options) return readableDate(value);
  const dateOnly = datePattern.exec(value);
  if (dateOnly) {
    const [, year, month, day] = dateOnly;
    const utc = new Date(Date.UTC(Number(year), month ? Number(month) - 1 : 0, day ? Number(day) : 1));
    const precision: Intl.DateTimeFormatOptions = day
      ? (options ?? { dateStyle: 'medium' })
      : month
        ? { year: 'numeric', month: 'short' }
        : { year: 'numeric' };
    return formatInstant(utc, locale, { ...precision, timeZone: 'UTC' }) ?? value;
  }
  return formatInstant(new Date(value), locale, options ?? { dateStyle: 'medium' }) ?? value;
}

/**
 * A FHIR dateTime or instant with its time, in the viewer's zone unless `options.timeZone` says
 * otherwise: '7 Mar 2020, 2:30 PM' ('Mar 7, 2020, 2:30 PM' with the en-US locale). A date-only
 * value has no time to show and is formatted as a date, without any zone shift.
 */
export function formatDateTime(
  value: string | undefined,
  locale?: string,
  options?: Intl.DateTimeFormatOptions,
): string {
  if (!value) return '';
  if (datePattern.test(value)) return formatDate(value, locale);
  const instant = new Date(value);
  if (!locale && !options) {
    const time = formatInstant(instant, undefined, { hour: 'numeric', minute: '2-digit' });
    return time ? `${readableDate(value)}, ${time}` : value;
  }
  return formatInstant(instant, locale, options ?? { dateStyle: 'medium', timeStyle: 'short' }) ?? value;
}

function formatInstant(
  date: Date,
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions,
): string | undefined {
  if (Number.isNaN(date.getTime())) return undefined;
  return new Intl.DateTimeFormat(locale, options).format(date);
}

/** A FHIR instant, or a dateTime down to the minute or finer, with its zone (FHIR requires one there). */
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * A string that is a point in time, as formatDateTime shows it; undefined for anything else. For
 * values shown without their type (a Meta's `lastUpdated` read off the object), where only the
 * shape tells an instant from a code or an id: a bare date or year is left alone, since a code
 * such as '2020' must not turn into a date.
 */
export function readableTimestamp(value: unknown, locale?: string): string | undefined {
  if (typeof value !== 'string' || !timestampPattern.test(value)) return undefined;
  const text = formatDateTime(value, locale);
  return text === value ? undefined : text;
}
