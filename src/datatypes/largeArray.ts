import { formatTypedValue } from './formatValue';

/** Arrays of structured values with more entries than this open collapsed, one line per entry. */
export const EXPANDED_ITEMS_MAX = 5;
/** …and so do shorter ones whose JSON is this long (a few ElementDefinitions mount hundreds of inputs). */
export const EXPANDED_JSON_MAX = 4000;
/** Collapsed entries listed at once; "Show more" lists the next page. */
export const COLLAPSED_PAGE_SIZE = 25;

/**
 * Whether an array's entries open collapsed: each entry of a structured type mounts an input per
 * element of its type (an ElementDefinition about a hundred), so a StructureDefinition's snapshot
 * would mount thousands and block the browser. Decided once when the form opens, so an entry
 * never collapses under the user's cursor while they type.
 */
export function opensCollapsed(items: readonly unknown[]): boolean {
  if (!items.some((item) => typeof item === 'object' && item !== null)) return false;
  if (items.length > EXPANDED_ITEMS_MAX) return true;
  return JSON.stringify(items).length > EXPANDED_JSON_MAX;
}

// What an entry is called, when its type has no display form of its own: ElementDefinition's id
// (path and slice), then the usual naming elements.
const NAMING_KEYS = ['id', 'path', 'name', 'title', 'display', 'text', 'url', 'reference', 'code', 'value', 'key'];
const SUMMARY_MAX = 120;

/** One line saying which entry this is (ElementDefinition → `Patient.identifier:mrn`; a HumanName → the name). */
export function itemSummary(item: unknown, type: string): string {
  const shorten = (text: string) => (text.length > SUMMARY_MAX ? `${text.slice(0, SUMMARY_MAX - 1)}…` : text);
  if (item === undefined || item === null) return '';
  if (typeof item !== 'object') return shorten(String(item));
  const record = item as Record<string, unknown>;
  if (Object.keys(record).length === 0) return '(empty)';
  for (const key of NAMING_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value) return shorten(value);
  }
  const formatted = formatTypedValue(item, type);
  return shorten(formatted || JSON.stringify(item));
}
