/**
 * FHIR R4 primitive rules (data-and-client-layer-spec.md §5), shared by the browser and the
 * server so that both call the same value valid or invalid.
 */
import { isBase64Binary } from './base64Binary';
import { narrativeActiveContent } from './narrativeXhtml';

export const primitiveTypes: readonly string[] = [
  'base64Binary',
  'boolean',
  'canonical',
  'code',
  'date',
  'dateTime',
  'decimal',
  'id',
  'instant',
  'integer',
  'markdown',
  'oid',
  'positiveInt',
  'string',
  'time',
  'unsignedInt',
  'uri',
  'url',
  'uuid',
  'xhtml',
];

const datePart = '(\\d{4})(?:-(\\d{2})(?:-(\\d{2}))?)?';
const zone = '(?:Z|[+-](?:0\\d|1[0-3]):[0-5]\\d|[+-]14:00)';
const timePart = '([01]\\d|2[0-3]):([0-5]\\d):([0-5]\\d|60)(?:\\.\\d{1,9})?';

const patterns: Record<string, RegExp> = {
  id: /^[A-Za-z0-9\-.]{1,64}$/,
  date: new RegExp(`^${datePart}$`),
  dateTime: new RegExp(`^${datePart}(?:T${timePart}${zone})?$`),
  instant: new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})T${timePart}${zone}$`),
  time: new RegExp(`^${timePart}$`),
  oid: /^urn:oid:[0-2](\.(0|[1-9]\d*))+$/,
  uuid: /^urn:uuid:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  uri: /^\S*$/,
};

const stringTypes = new Set([
  'base64Binary',
  'canonical',
  'code',
  'date',
  'dateTime',
  'id',
  'instant',
  'markdown',
  'oid',
  'string',
  'time',
  'uri',
  'url',
  'uuid',
  'xhtml',
]);

/** The general UUID check: 8-4-4-4-12 word characters. */
export function isUuid(value: string): boolean {
  return /^\w{8}-\w{4}-\w{4}-\w{4}-\w{12}$/.test(value);
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Year, month and day that exist on the calendar (2023-02-29 does not). */
function isRealDate(year: string, month: string | undefined, day: string | undefined): boolean {
  if (month === undefined) return true;
  const m = Number(month);
  if (m < 1 || m > 12) return false;
  if (day === undefined) return true;
  const d = Number(day);
  return d >= 1 && d <= daysInMonth(Number(year), m);
}

/**
 * Checks one primitive value. Returns undefined when valid, otherwise a short message for the
 * user (shown under the field, or in an OperationOutcome issue).
 */
export function validatePrimitive(type: string, value: unknown): string | undefined {
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : 'Expected boolean';
  if (type === 'decimal') return typeof value === 'number' && Number.isFinite(value) ? undefined : 'Expected decimal';
  if (type === 'integer' || type === 'positiveInt' || type === 'unsignedInt') {
    if (typeof value !== 'number' || !Number.isInteger(value)) return `Expected ${type}`;
    if (value > 2147483647 || value < -2147483648) return `${type} out of range`;
    if (type === 'positiveInt' && value < 1) return 'Expected positiveInt (1 or more)';
    if (type === 'unsignedInt' && value < 0) return 'Expected unsignedInt (0 or more)';
    return undefined;
  }
  if (!stringTypes.has(type)) return undefined;
  if (typeof value !== 'string') return `Expected ${type} (a string)`;
  if (value.length === 0) return `Invalid empty ${type}`;
  switch (type) {
    case 'string':
    case 'markdown':
      return value.trim().length === 0 ? `Invalid ${type}: only white space` : undefined;
    case 'xhtml': {
      if (value.trim().length === 0) return `Invalid ${type}: only white space`;
      const activeContent = narrativeActiveContent(value);
      return activeContent ? `Narrative XHTML may not contain ${activeContent} (FHIR txt-1)` : undefined;
    }
    case 'base64Binary':
      return isBase64Binary(value) ? undefined : 'Invalid base64Binary format';
    case 'code':
      return value !== value.trim() || /\s{2,}/.test(value) ? 'Invalid code format' : undefined;
    case 'uri':
    case 'url':
    case 'canonical':
      return patterns.uri.test(value) ? undefined : `Invalid ${type} format`;
    case 'date':
    case 'dateTime':
    case 'instant': {
      const match = patterns[type].exec(value);
      if (!match || !isRealDate(match[1], match[2], match[3])) return `Invalid ${type} format`;
      return undefined;
    }
    default: {
      const pattern = patterns[type];
      return pattern && !pattern.test(value) ? `Invalid ${type} format` : undefined;
    }
  }
}
