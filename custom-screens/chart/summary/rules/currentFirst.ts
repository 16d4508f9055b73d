/**
 * The order of a summary section's entries: what is still going on first (an active problem, a
 * medication being taken), then newest first by the entry's date, undated ones last, and otherwise
 * as loaded. Imported histories are long (a Synthea patient has 20 yearly statin refills) and
 * were listed by when they were written, which for an import says nothing.
 */
export function currentFirst<T>(
  entries: readonly T[],
  isCurrent: (entry: T) => boolean,
  dateOf: (entry: T) => string | undefined,
): T[] {
  return entries
    .map((entry, index) => ({ entry, index, current: isCurrent(entry), time: instant(dateOf(entry)) }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.time - a.time || a.index - b.index)
    .map(({ entry }) => entry);
}

/** A FHIR date or dateTime as a number to compare; -Infinity (last) when missing or unreadable. */
function instant(value: string | undefined): number {
  const time = value ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? -Infinity : time;
}
