import type {
  Address,
  Attachment,
  CodeableConcept,
  Coding,
  ContactPoint,
  HumanName,
  Identifier,
  Money,
  Period,
  Quantity,
  Range,
  Ratio,
  Reference,
} from '@medplum/fhirtypes';
import {
  formatAddress,
  formatCodeableConcept,
  formatCoding,
  formatContactPoint,
  formatDate,
  formatDateTime,
  formatHumanName,
  formatIdentifier,
  formatPeriod,
  formatQuantity,
  formatRange,
} from '../../data-provider/formatting';

/** One value of a FHIR datatype as display text, through data-provider/formatting. */
export function formatTypedValue(value: unknown, type: string | undefined): string {
  if (value === undefined || value === null) return '';
  switch (type) {
    case 'HumanName':
      return formatHumanName(value as HumanName, { prefix: true, suffix: true });
    case 'Address':
      return formatAddress(value as Address);
    case 'ContactPoint':
      return formatContactPoint(value as ContactPoint);
    case 'Identifier':
      return formatIdentifier(value as Identifier, { system: true });
    case 'CodeableConcept':
      return formatCodeableConcept(value as CodeableConcept);
    case 'Coding':
      return formatCoding(value as Coding, { includeCode: true });
    case 'Quantity':
    case 'Age':
    case 'Count':
    case 'Distance':
    case 'Duration':
    case 'SimpleQuantity':
    case 'MoneyQuantity':
      return formatQuantity(value as Quantity);
    case 'Money': {
      const money = value as Money;
      return [money.value, money.currency].filter((part) => part !== undefined).join(' ');
    }
    case 'Range':
      return formatRange(value as Range);
    case 'Ratio': {
      const ratio = value as Ratio;
      return `${formatQuantity(ratio.numerator)} / ${formatQuantity(ratio.denominator)}`;
    }
    case 'Period':
      return formatPeriod(value as Period);
    case 'Reference': {
      const reference = value as Reference;
      return reference.display ?? reference.reference ?? formatIdentifier(reference.identifier) ?? '';
    }
    case 'Attachment': {
      const attachment = value as Attachment;
      return attachment.title ?? attachment.url ?? attachment.contentType ?? 'Attachment';
    }
    case 'date':
      return formatDate(String(value));
    case 'dateTime':
    case 'instant':
      return String(value).length > 10 ? formatDateTime(String(value)) : formatDate(String(value));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'Annotation':
      return (value as { text?: string }).text ?? '';
    default:
      return formatUntypedValue(value);
  }
}

/** A value whose type is not known (e.g. a search column): guessed from its shape. */
export function formatUntypedValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(formatUntypedValue).filter(Boolean).join(', ');
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  if ('family' in record || 'given' in record) return formatTypedValue(value, 'HumanName');
  if ('coding' in record || ('text' in record && Object.keys(record).length === 1)) {
    return formatTypedValue(value, 'CodeableConcept');
  }
  if ('reference' in record || 'display' in record) return formatTypedValue(value, 'Reference');
  if ('system' in record && 'code' in record && !('value' in record)) return formatTypedValue(value, 'Coding');
  if ('value' in record && ('unit' in record || 'code' in record)) return formatTypedValue(value, 'Quantity');
  if ('start' in record || 'end' in record) return formatTypedValue(value, 'Period');
  if ('line' in record || 'city' in record) return formatTypedValue(value, 'Address');
  if ('system' in record && 'value' in record) {
    return typeof record.system === 'string' && /^(phone|email|fax|pager|sms|url|other)$/.test(record.system)
      ? formatTypedValue(value, 'ContactPoint')
      : formatTypedValue(value, 'Identifier');
  }
  return formatElementValues(record);
}

/** Keys that say nothing a reader of one line needs: ids, extensions, primitives' extension twins. */
const unreadableKey = (key: string) =>
  key === 'id' || key === 'extension' || key === 'modifierExtension' || key.startsWith('_');

/**
 * An element of no known shape — a backbone element such as an Appointment's `participant` — as
 * its values in order ("Chauncey Johnston · accepted"), each formatted by its own shape: a list cell
 * or a summary line, never the raw JSON.
 */
function formatElementValues(record: Record<string, unknown>): string {
  return Object.entries(record)
    .filter(([key]) => !unreadableKey(key))
    .map(([, value]) => formatUntypedValue(value))
    .filter(Boolean)
    .join(' · ');
}
