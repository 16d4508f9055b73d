/**
 * Dates and times for display. A FHIR date ('2020', '2020-03', '2020-03-07') is a calendar day,
 * not an instant: JavaScript's Date would read '2020-03-07' as UTC midnight and a viewer west of
 * Greenwich would see 6 March. Date-only values are therefore formatted in UTC from their own
 * parts, and only values with a time are converted to the viewer's zone.
 */

const datePattern = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * A FHIR date or dateTime as a date: 'Mar 7, 2020', 'Mar 2020' or '2020' by precision. `options`
 * apply to full dates and dateTimes; a partial date keeps its precision, since showing '1' for an
 * unknown day would invent a fact. Unparseable input is returned as it is, so nothing is hidden.
 */
export function formatDate(value: string | undefined, locale?: string, options?: Intl.DateTimeFormatOptions): string {
  if (!value) return '';
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
 * otherwise: 'Mar 7, 2020, 2:30 PM'. A date-only value has no time to show and is formatted as a
 * date, without any zone shift.
 */
export function formatDateTime(
  value: string | undefined,
  locale?: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string {
  if (!value) return '';
  if (datePattern.test(value)) return formatDate(value, locale);
  return formatInstant(new Date(value), locale, options) ?? value;
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
