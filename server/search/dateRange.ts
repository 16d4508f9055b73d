/** The instant range [low, high] (both inclusive, ISO strings) that a FHIR date/dateTime/instant covers. */
export function dateRange(value: string): { low: string; high: string } | undefined {
  const match =
    /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/.exec(
      value.trim(),
    );
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const y = Number(year);
  if (month === undefined) {
    return { low: utc(y, 0, 1), high: endBefore(Date.UTC(y + 1, 0, 1)) };
  }
  const m = Number(month) - 1;
  if (m < 0 || m > 11) return undefined;
  if (day === undefined) {
    return { low: utc(y, m, 1), high: endBefore(Date.UTC(y, m + 1, 1)) };
  }
  const d = Number(day);
  if (hour === undefined) {
    const start = Date.UTC(y, m, d);
    if (Number.isNaN(start)) return undefined;
    return { low: new Date(start).toISOString(), high: endBefore(Date.UTC(y, m, d + 1)) };
  }
  // A time without a zone is read as UTC: the index needs some instant, and FHIR forbids it anyway.
  const offset = zone && zone !== 'Z' ? zone : '+00:00';
  const base = `${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${fraction ?? ''}${offset}`;
  const start = Date.parse(base);
  if (Number.isNaN(start)) return undefined;
  if (second === undefined) {
    return { low: new Date(start).toISOString(), high: new Date(start + 59_999).toISOString() };
  }
  if (fraction === undefined) {
    return { low: new Date(start).toISOString(), high: new Date(start + 999).toISOString() };
  }
  const instant = new Date(start).toISOString();
  return { low: instant, high: instant };
}

function utc(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month, day)).toISOString();
}

function endBefore(nextStart: number): string {
  return new Date(nextStart - 1).toISOString();
}
