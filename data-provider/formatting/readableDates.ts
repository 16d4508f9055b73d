const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const DATE_ONLY = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * A date as people read it: '12 Mar 2024', the same in every browser (Intl's en-GB says 'Sept').
 * Partial dates keep their precision ('Mar 2024', '2024'); a dateTime is shown on the viewer's day;
 * unreadable input is returned as it is, so nothing is hidden.
 */
export function readableDate(value: string | undefined): string {
  if (!value) return '';
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const [, year, month, day] = dateOnly;
    const monthName = month ? MONTHS[Number(month) - 1] : undefined;
    if (month && !monthName) return value;
    return [day ? String(Number(day)) : undefined, monthName, year].filter(Boolean).join(' ');
  }
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return value;
  return `${instant.getDate()} ${MONTHS[instant.getMonth()]} ${instant.getFullYear()}`;
}

/**
 * Age on `today` from a FHIR birth date: '52 y'; under two years in months ('18 mo'), under a
 * month in days ('12 d'). Undefined for a missing or unreadable date.
 */
export function ageOf(birthDate: string | undefined, today: Date = new Date()): string | undefined {
  const match = DATE_ONLY.exec(birthDate ?? '');
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = match[2] ? Number(match[2]) - 1 : 0;
  const day = match[3] ? Number(match[3]) : 1;
  const ty = today.getFullYear();
  const tm = today.getMonth();
  const td = today.getDate();
  let months = (ty - year) * 12 + (tm - month);
  if (td < day) months -= 1;
  if (months < 0) return undefined;
  if (months >= 24) return `${Math.floor(months / 12)} y`;
  if (months >= 1) return `${months} mo`;
  const born = new Date(year, month, day);
  const days = Math.floor((new Date(ty, tm, td).getTime() - born.getTime()) / 86_400_000);
  return `${days} d`;
}
