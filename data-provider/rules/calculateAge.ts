/** An age in whole units, each counted from the birth date on its own: 1 year 2 months is years 1, months 14. */
export interface Age {
  years: number;
  months: number;
  days: number;
}

interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/**
 * Age on `now` of someone born on `birthDate` (a FHIR date: 'YYYY', 'YYYY-MM' or 'YYYY-MM-DD'; a
 * missing month or day counts as the first). Calendar arithmetic on the date parts, never on
 * instants, so the viewer's time zone and daylight saving cannot move a birthday by a day. A Date
 * for `now` counts by its local calendar day, which is the day the person looking at it lives in.
 */
export function calculateAge(birthDate: string, now: Date | string = new Date()): Age {
  const birth = parseCalendarDate(birthDate, 'birth date');
  const today = typeof now === 'string' ? parseCalendarDate(now.slice(0, 10), 'date') : localCalendarDate(now);
  const days = dayNumber(today) - dayNumber(birth);
  if (days < 0) throw new RangeError(`Birth date ${birthDate} is after ${formatCalendarDate(today)}`);
  const months = (today.year - birth.year) * 12 + (today.month - birth.month) - (today.day < birth.day ? 1 : 0);
  return { years: Math.floor(months / 12), months, days };
}

/**
 * The compact age of spec §5: '042Y' from two years on, '018M' from one month on, else '012D'.
 * Three digits so that ages line up in lists.
 */
export function calculateAgeString(birthDate: string, now?: Date | string): string;
export function calculateAgeString(birthDate: string | undefined, now?: Date | string): string | undefined;
export function calculateAgeString(birthDate: string | undefined, now?: Date | string): string | undefined {
  if (birthDate === undefined) return undefined;
  const { years, months, days } = calculateAge(birthDate, now);
  if (years >= 2) return `${threeDigits(years)}Y`;
  if (months >= 1) return `${threeDigits(months)}M`;
  return `${threeDigits(days)}D`;
}

function threeDigits(value: number): string {
  return String(value).padStart(3, '0');
}

function parseCalendarDate(value: string, what: string): CalendarDate {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  const date = match && {
    year: Number(match[1]),
    month: match[2] ? Number(match[2]) : 1,
    day: match[3] ? Number(match[3]) : 1,
  };
  if (!date || date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    throw new RangeError(`Invalid ${what}: ${value}`);
  }
  return date;
}

function localCalendarDate(date: Date): CalendarDate {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid date: not a time');
  return { year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() };
}

/** Days since 1970-01-01 of a calendar date, computed in UTC where every day has 24 hours. */
function dayNumber(date: CalendarDate): number {
  return Date.UTC(date.year, date.month - 1, date.day) / 86_400_000;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function formatCalendarDate(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}
