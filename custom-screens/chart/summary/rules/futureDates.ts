/**
 * Whether a date field's day (yyyy-mm-dd) comes after `today`: an onset or a diagnosis cannot
 * have happened yet. Compared as numbers, not as text: a date input also takes years of five or
 * more digits, which a text comparison would put before this year. A day that is not a date is
 * not said to be in the future (other rules, or the date input itself, deal with it).
 */
export function isAfterDay(day: string, today: string): boolean {
  const parts = (text: string) => /^(\d{4,})-(\d{2})-(\d{2})$/.exec(text.trim())?.slice(1).map(Number);
  const a = parts(day);
  const b = parts(today);
  if (!a || !b) return false;
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) > (b[i] as number);
  return false;
}
