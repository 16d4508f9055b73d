/** Conversions between answer values and what HTML inputs hold (pure, shared by the inputs and tests). */

/** `datetime-local` text (viewer's zone) for a FHIR dateTime, or '' when it has no time. */
export function toLocalDateTimeInput(value: string | undefined): string {
  if (!value || !value.includes('T')) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A FHIR dateTime (with the viewer's offset) from `datetime-local` text. */
export function fromLocalDateTimeInput(text: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return undefined;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return undefined;
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const pad = (n: number) => String(Math.floor(Math.abs(n))).padStart(2, '0');
  return `${text.slice(0, 16)}:00${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}

/** FHIR time is hh:mm:ss; a time input may give hh:mm. */
export function fromTimeInput(text: string): string | undefined {
  if (/^\d{2}:\d{2}$/.test(text)) return `${text}:00`;
  return /^\d{2}:\d{2}:\d{2}$/.test(text) ? text : undefined;
}

/** A typed number, or undefined for blank or partial input ('', '-', '1e'). */
export function parseNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Largest attachment kept inside a response (base64 in the resource); larger files are refused. */
export const MAX_INLINE_ATTACHMENT_BYTES = 5 * 1024 * 1024;
