/**
 * Today, and "after today", as a person in front of the screen means them: the browser's own
 * calendar day, not UTC's (someone born, seen or diagnosed "today" there is not in the future).
 * Shared by every form that refuses a future date, so that they all draw the line on the same day.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** `yyyy-mm-dd` of `now` on the browser's clock. */
export function localDay(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const DAY = /^(\d{4,})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * Whether a FHIR date or dateTime lies after `today` (`yyyy-mm-dd`). A partial date is compared at
 * its own precision ("2040" and "2040-01" are future, this year and this month are not); parts are
 * compared as numbers (a date input takes five-digit years, which text would put before this one);
 * a dateTime with a time counts by its local day. Text that is no date is not judged here.
 */
export function isAfterDay(value: string, today: string): boolean {
  const text = value.trim();
  if (/^\d{4,}-\d{2}-\d{2}T/.test(text)) {
    const instant = new Date(text);
    return !Number.isNaN(instant.getTime()) && isAfterDay(localDay(instant), today);
  }
  const given = DAY.exec(text);
  const now = DAY.exec(today);
  if (!given || !now) return false;
  for (let part = 1; part <= 3; part++) {
    // Equal down to the value's own precision: not after.
    if (given[part] === undefined) return false;
    const a = Number(given[part]);
    const b = Number(now[part]);
    if (a !== b) return a > b;
  }
  return false;
}
