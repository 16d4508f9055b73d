import { dateRange } from './dateRange';
import type { SearchParamDefinition, SearchParamType } from './searchParameterRegistry';

export interface TokenRow {
  code: string;
  system: string | null;
  value: string | null;
  display: string | null;
}
export interface StringRow {
  code: string;
  value: string;
  normalized: string;
}
export interface DateRow {
  code: string;
  low: string | null;
  high: string | null;
}
export interface NumberRow {
  code: string;
  value: number;
}
export interface QuantityRow {
  code: string;
  value: number;
  system: string | null;
  unit_code: string | null;
}
export interface ReferenceRow {
  code: string;
  target_type: string | null;
  target_id: string | null;
  reference: string;
}
export interface UriRow {
  code: string;
  value: string;
}
export interface CompositeRow {
  code: string;
  /** One object of index values per component, in the parameter's component order. */
  components: Record<string, unknown>[];
}

/** Every index row of one resource, grouped by index table. */
export interface IndexRows {
  token: TokenRow[];
  string: StringRow[];
  date: DateRow[];
  number: NumberRow[];
  quantity: QuantityRow[];
  reference: ReferenceRow[];
  uri: UriRow[];
  composite: CompositeRow[];
}

export function emptyIndexRows(): IndexRows {
  return { token: [], string: [], date: [], number: [], quantity: [], reference: [], uri: [], composite: [] };
}

/** Lower case without accents: string search is case- and accent-insensitive. */
export function normalizeSearchString(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Extracts the values of `parameters` from `resource` into index rows. */
export function extractIndexRows(
  resource: Json,
  parameters: readonly SearchParamDefinition[],
  typeOfUrl: (url: string) => SearchParamType | undefined = () => undefined,
): IndexRows {
  const rows = emptyIndexRows();
  for (const parameter of parameters) {
    if (parameter.type === 'special' || !parameter.expression) continue;
    let values: unknown[];
    try {
      values = parameter.evaluate(resource);
      if (parameter.type === 'composite') addComposite(rows, parameter, values, typeOfUrl);
      else for (const value of values) addValue(rows, parameter, value);
    } catch {
      // A runtime error in one expression must not block the write; that parameter indexes nothing.
      continue;
    }
  }
  return dedupe(rows);
}

function addValue(rows: IndexRows, parameter: SearchParamDefinition, value: unknown): void {
  if (parameter.type === 'composite' || parameter.type === 'special') return;
  const table = rows[parameter.type] as { code: string }[];
  for (const component of componentValues(parameter.type, value)) table.push({ code: parameter.code, ...component });
}

/** The index values (without the parameter code) that one FHIRPath result yields for a parameter type. */
export function componentValues(type: SearchParamType, value: unknown): Record<string, unknown>[] {
  switch (type) {
    case 'string':
      return stringValues(value).map((text) => ({ value: text, normalized: normalizeSearchString(text) }));
    case 'token':
      return tokenValues(value);
    case 'reference': {
      const row = referenceValue(value);
      return row ? [row] : [];
    }
    case 'date':
      return dateValues(value);
    case 'number':
      if (typeof value === 'number') return [{ value }];
      return isObject(value) && typeof value.value === 'number' ? [{ value: value.value }] : [];
    case 'quantity':
      if (!isObject(value) || typeof value.value !== 'number') return [];
      return [
        {
          value: value.value,
          system: str(value.system),
          unit_code: str(value.code) ?? str(value.unit) ?? str(value.currency),
        },
      ];
    case 'uri':
      return typeof value === 'string' && value.length > 0 ? [{ value }] : [];
    default:
      return [];
  }
}

/**
 * Composite rows: for each item of the composite's expression, every combination of its
 * components' values, so that `code$value` pairs stay within one item (one Observation.component).
 */
function addComposite(
  rows: IndexRows,
  parameter: SearchParamDefinition,
  items: unknown[],
  typeOfUrl: (url: string) => SearchParamType | undefined,
): void {
  const components = parameter.components ?? [];
  const types = components.map((c) => typeOfUrl(c.definition));
  if (components.length === 0 || types.some((t) => t === undefined)) return;
  for (const item of items) {
    let combinations: Record<string, unknown>[][] = [[]];
    components.forEach((component, index) => {
      const values = component.evaluate(item).flatMap((v) => componentValues(types[index] as SearchParamType, v));
      combinations = combinations.flatMap((prefix) => values.map((v) => [...prefix, v]));
    });
    for (const combination of combinations) rows.composite.push({ code: parameter.code, components: combination });
  }
}

function stringValues(value: unknown): string[] {
  if (typeof value === 'string') return value.length > 0 ? [value] : [];
  if (!isObject(value)) return [];
  const out: string[] = [];
  // HumanName and Address: each part is searchable, and so is the whole.
  for (const key of [
    'text',
    'family',
    'given',
    'prefix',
    'suffix',
    'line',
    'city',
    'district',
    'state',
    'postalCode',
    'country',
  ]) {
    const part = value[key];
    if (typeof part === 'string' && part.length > 0) out.push(part);
    else if (Array.isArray(part)) out.push(...part.filter((p): p is string => typeof p === 'string' && p.length > 0));
  }
  return out;
}

function tokenValues(value: unknown): Omit<TokenRow, 'code'>[] {
  if (typeof value === 'string') return value.length > 0 ? [{ system: null, value, display: null }] : [];
  if (typeof value === 'boolean') return [{ system: null, value: String(value), display: null }];
  if (typeof value === 'number') return [{ system: null, value: String(value), display: null }];
  if (!isObject(value)) return [];
  if (Array.isArray(value.coding) || typeof value.text === 'string') {
    // CodeableConcept: each coding, plus its text for :text searches.
    const out: Omit<TokenRow, 'code'>[] = [];
    for (const coding of Array.isArray(value.coding) ? value.coding : []) {
      if (isObject(coding))
        out.push({ system: str(coding.system), value: str(coding.code), display: str(coding.display) });
    }
    if (typeof value.text === 'string') out.push({ system: null, value: null, display: value.text });
    return out;
  }
  if ('value' in value && !('code' in value)) {
    // Identifier or ContactPoint (both may have a system too, so test them before Coding).
    const display = isObject(value.type) && typeof value.type.text === 'string' ? value.type.text : null;
    return [{ system: str(value.system), value: str(value.value), display }];
  }
  if ('code' in value || 'system' in value) {
    // Coding
    return [{ system: str(value.system), value: str(value.code), display: str(value.display) }];
  }
  return [];
}

function referenceValue(value: unknown): Omit<ReferenceRow, 'code'> | undefined {
  const reference = typeof value === 'string' ? value : isObject(value) ? str(value.reference) : null;
  if (!reference) return undefined;
  // Type names are bounded like ids: both are b-tree indexed (search_reference_target_idx).
  const match = /(?:^|\/)([A-Z][A-Za-z]{0,63})\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]+)?$/.exec(
    reference,
  );
  if (match) return { target_type: match[1], target_id: match[2], reference };
  return { target_type: null, target_id: null, reference };
}

function dateValues(value: unknown): { low: string | null; high: string | null }[] {
  if (typeof value === 'string') {
    const range = dateRange(value);
    return range ? [range] : [];
  }
  if (!isObject(value)) return [];
  if ('start' in value || 'end' in value) {
    // Period: an open end is unbounded on that side.
    const start = typeof value.start === 'string' ? dateRange(value.start) : undefined;
    const end = typeof value.end === 'string' ? dateRange(value.end) : undefined;
    if (!start && !end) return [];
    return [{ low: start?.low ?? null, high: end?.high ?? null }];
  }
  if (Array.isArray(value.event)) {
    // Timing: its events.
    return value.event
      .flatMap((event) => (typeof event === 'string' ? [dateRange(event)] : []))
      .filter((r) => r !== undefined);
  }
  return [];
}

function dedupe(rows: IndexRows): IndexRows {
  const unique = <T>(list: T[]): T[] => {
    const seen = new Set<string>();
    return list.filter((row) => {
      const key = JSON.stringify(row);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  return {
    token: unique(rows.token),
    string: unique(rows.string),
    date: unique(rows.date),
    number: unique(rows.number),
    quantity: unique(rows.quantity),
    reference: unique(rows.reference),
    uri: unique(rows.uri),
    composite: unique(rows.composite),
  };
}
