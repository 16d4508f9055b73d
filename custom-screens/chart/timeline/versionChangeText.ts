import { fieldLabel } from '../../../src/search/searchColumns';
import { readableDate, readableTimestamp } from '../../../data-provider/formatting';

/**
 * What a changed field is called in the timeline's Before/After table: "Name 1 › Family" rather
 * than `name[0].family`, "Birth Date" rather than `birthDate`. A clinician reads the table; the
 * stored path stays in the cell's title for whoever needs it.
 */
export function changeFieldLabel(path: string): string {
  return path
    .split('.')
    .map((segment) => {
      const indexed = /^(.+?)\[(\d+)\]$/.exec(segment);
      // The first of a list needs no number: most lists hold one (a name, an address).
      if (indexed)
        return Number(indexed[2]) === 0
          ? fieldLabel(indexed[1]!)
          : `${fieldLabel(indexed[1]!)} ${Number(indexed[2]) + 1}`;
      return fieldLabel(segment);
    })
    .join(' › ');
}

const DATE_ONLY = /^\d{4}(-\d{2}(-\d{2})?)?$/;

/**
 * A changed value as people read it: dates as the sidebar writes them ("15 Nov 2000"), instants
 * with their time, true/false as Yes/No, absent as a dash; other values as stored.
 */
export function changeValueText(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (DATE_ONLY.test(value)) return readableDate(value);
    return readableTimestamp(value) ?? value;
  }
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}
