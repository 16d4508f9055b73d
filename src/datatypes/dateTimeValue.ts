import { validatePrimitive } from '../../data-provider/validation/primitiveRules';

/**
 * Rules of the date and time inputs (pure). A stored value is the truth: it is shown as written
 * (precision and offset kept) and only an edit produces a new one. The native pickers beside the
 * text only show and set the wall-clock part; the offset of an edited dateTime/instant stays the one
 * it had, and a new one takes the user's offset at that moment (shown in the text).
 */
export type TemporalType = 'date' | 'dateTime' | 'instant' | 'time';

export function isTemporalType(type: string): type is TemporalType {
  return type === 'date' || type === 'dateTime' || type === 'instant' || type === 'time';
}

/** The formats of FHIR R4 (the regex of each type, in words): what the message under the field says. */
export const TEMPORAL_FORMATS: Record<TemporalType, string> = {
  date: 'YYYY, YYYY-MM or YYYY-MM-DD',
  dateTime: 'YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.sss] with Z or ±hh:mm',
  instant: 'YYYY-MM-DDThh:mm:ss[.sss] with Z or ±hh:mm',
  time: 'hh:mm or hh:mm:ss[.sss]',
};

/** The FHIR R4 regular expressions (StructureDefinition of each primitive), for the input's `pattern`. */
export const FHIR_TEMPORAL_REGEX: Record<TemporalType, string> = {
  date: '([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1]))?)?',
  dateTime:
    '([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?(Z|(\\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?',
  instant:
    '([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?(Z|(\\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00))',
  // R4's time requires seconds; the input also takes hh:mm and stores hh:mm:00.
  time: '([01][0-9]|2[0-3]):[0-5][0-9](:([0-5][0-9]|60)(\\.[0-9]+)?)?',
};

const ZONE = /(Z|[+-]\d{2}:\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** The offset a dateTime/instant was written with (`Z`, `+05:30`), if it has a time. */
export function zoneOf(value: string | undefined): string | undefined {
  if (!value || !value.includes('T')) return undefined;
  return ZONE.exec(value)?.[1];
}

/** The user's UTC offset at a local wall-clock time (`YYYY-MM-DDThh:mm[:ss]`): `Z` or `±hh:mm`. */
export function localZone(wallClock: string): string {
  const date = new Date(wallClock);
  const minutes = Number.isNaN(date.getTime()) ? new Date().getTimezoneOffset() : date.getTimezoneOffset();
  if (minutes === 0) return 'Z';
  // getTimezoneOffset is UTC − local: a zone east of Greenwich is negative.
  const sign = minutes < 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * Typed text → the value to store: trimmed; a time without seconds gets `:00`; a dateTime/instant
 * with a time but no offset gets `keepZone` (the offset the value had) or the user's offset. What
 * cannot be completed is returned as typed, so that it is never silently dropped.
 */
export function completeTemporal(type: TemporalType, text: string, keepZone?: string): string {
  const trimmed = text.trim();
  if (type === 'time') return /^\d{2}:\d{2}$/.test(trimmed) ? `${trimmed}:00` : trimmed;
  if (type === 'date') return trimmed;
  const match = DATE_TIME.exec(trimmed);
  if (!match) return trimmed;
  const [, date, hoursMinutes, seconds, zone] = match;
  const wallClock = `${date}T${hoursMinutes}${seconds ?? ':00'}`;
  return `${wallClock}${zone ?? keepZone ?? localZone(wallClock)}`;
}

/** The message under the field for a value that is not of its type, or undefined when it is. */
export function temporalError(type: TemporalType, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  return validatePrimitive(type, value) ? `Invalid ${type}: use ${TEMPORAL_FORMATS[type]}` : undefined;
}

/** What the native picker shows for a stored value: its wall-clock part, or '' when it has none. */
export function pickerValue(type: TemporalType, value: string | undefined): string {
  if (!value || temporalError(type, value)) return '';
  if (type === 'date') return value.length === 10 ? value : '';
  if (type === 'time') return value.slice(0, 8);
  const match = DATE_TIME.exec(value);
  return match && match[3] ? `${match[1]}T${match[2]}${match[3].slice(0, 3)}` : '';
}

/** A picked wall-clock value → the value to store, with `keepZone` (the offset the value had) if any. */
export function fromPicker(type: TemporalType, picked: string, keepZone: string | undefined): string | undefined {
  if (!picked) return undefined;
  return completeTemporal(type, picked, keepZone);
}

/** A short note of what a valid value holds (precision and offset), shown under the field. */
export function describeTemporal(type: TemporalType, value: string | undefined): string | undefined {
  if (!value || temporalError(type, value)) return undefined;
  if (type === 'time') return undefined;
  if (/^\d{4}$/.test(value)) return 'Year only';
  if (/^\d{4}-\d{2}$/.test(value)) return 'Year and month';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return type === 'date' ? undefined : 'Date only, no time';
  const zone = zoneOf(value);
  return zone === 'Z' ? 'Time in UTC (Z)' : `Time at UTC${zone}`;
}
