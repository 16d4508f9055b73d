import { isAbsoluteReference } from './absoluteReference';
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

const nonAscii = /[\u0080-\uffff]/;

/** Lower case without accents: string search is case- and accent-insensitive. */
export function normalizeSearchString(value: string): string {
  // Plain ASCII has nothing to decompose (most index values): only its case changes.
  if (!nonAscii.test(value)) return value.toLowerCase();
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

/**
 * Called after each parameter's rows are added to their table (`table[start..]`), outside the
 * handling of expression errors: it may throw to stop the extraction (a write's limits on index
 * values, validation/resourceLimits.ts).
 */
export type IndexRowsCheck = (
  parameter: SearchParamDefinition,
  table: readonly Record<string, unknown>[],
  start: number,
) => void;

/** Extracts the values of `parameters` from `resource` into index rows. */
export function extractIndexRows(
  resource: Json,
  parameters: readonly SearchParamDefinition[],
  typeOfUrl: (url: string) => SearchParamType | undefined = () => undefined,
  check?: IndexRowsCheck,
): IndexRows {
  const rows = emptyIndexRows();
  for (const parameter of parameters) {
    if (parameter.type === 'special' || !parameter.expression) continue;
    const table = rows[parameter.type] as unknown as Row[];
    const start = table.length;
    try {
      const values = parameter.evaluate(resource);
      if (parameter.type === 'composite') addComposite(rows, parameter, values, typeOfUrl);
      else for (const value of values) addRows(rows, parameter.type, parameter.code, value);
    } catch {
      // A runtime error in one expression must not block the write; that parameter indexes nothing
      // (or, for a composite whose component failed on a later item, what the earlier items gave).
    }
    // Rows of different codes never repeat each other: each parameter's own rows are deduplicated
    // right away, in a short list. Two parameters with one code (rare) need the whole table.
    if (table.length - start > 1) dedupeFrom(table, start, parameter.type);
    check?.(parameter, table, start);
  }
  return codesRepeat(parameters) ? dedupe(rows) : rows;
}

/** The index values (without the parameter code) that one FHIRPath result yields for a parameter type. */
export function componentValues(type: SearchParamType, value: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  addValues(out, type, undefined, value);
  return out;
}

function addRows(rows: IndexRows, type: SearchParamType, code: string, value: unknown): void {
  if (type === 'composite' || type === 'special') return;
  addValues(rows[type] as unknown as Record<string, unknown>[], type, code, value);
}

/**
 * Adds the rows one FHIRPath result yields for a parameter type to `out`: with the parameter's
 * `code` first (an index row) or, for a composite's component, without it. Rows are built in
 * place (an import writes hundreds of thousands of them: no intermediate arrays or spreads).
 */
function addValues(
  out: Record<string, unknown>[],
  type: SearchParamType,
  code: string | undefined,
  value: unknown,
): void {
  switch (type) {
    case 'string':
      addStrings(out, code, value);
      return;
    case 'token':
      addTokens(out, code, value);
      return;
    case 'reference': {
      const reference = typeof value === 'string' ? value : isObject(value) ? str(value.reference) : null;
      if (!reference) return;
      const target = referenceTarget(reference);
      const targetType = target ? target[1] : null;
      const targetId = target ? target[2] : null;
      out.push(
        code === undefined
          ? { target_type: targetType, target_id: targetId, reference }
          : { code, target_type: targetType, target_id: targetId, reference },
      );
      return;
    }
    case 'date':
      addDates(out, code, value);
      return;
    case 'number': {
      const number =
        typeof value === 'number'
          ? value
          : isObject(value) && typeof value.value === 'number'
            ? value.value
            : undefined;
      if (number !== undefined) out.push(code === undefined ? { value: number } : { code, value: number });
      return;
    }
    case 'quantity': {
      if (!isObject(value) || typeof value.value !== 'number') return;
      const system = str(value.system);
      const unitCode = str(value.code) ?? str(value.unit) ?? str(value.currency);
      out.push(
        code === undefined
          ? { value: value.value, system, unit_code: unitCode }
          : { code, value: value.value, system, unit_code: unitCode },
      );
      return;
    }
    case 'uri':
      if (typeof value === 'string' && value.length > 0) out.push(code === undefined ? { value } : { code, value });
      return;
    default:
      return;
  }
}

/**
 * Composite rows one item (one Observation.component) may give. The base composites give one per
 * coding of the item; a project's composite whose components each yield many values would give
 * their product (four components of 100 values: 10^8 rows, on every write of its type).
 */
export const maxCompositeRowsPerItem = 1_000;

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
  if (components.length === 0) return;
  const types: SearchParamType[] = [];
  for (const component of components) {
    const type = typeOfUrl(component.definition);
    if (type === undefined) return;
    types.push(type);
  }
  for (const item of items) {
    let combinations: Row[][] = [[]];
    for (let index = 0; index < components.length; index++) {
      // Every component is evaluated, even after an empty one (an error in it still drops the parameter).
      const values: Row[] = [];
      for (const value of components[index].evaluate(item)) addValues(values, types[index], undefined, value);
      // k components of n values each are n^k rows: past the bound the parameter stops here.
      if (combinations.length * values.length > maxCompositeRowsPerItem) {
        throw new Error(`More than ${maxCompositeRowsPerItem} composite rows for one item of ${parameter.code}`);
      }
      const longer: Row[][] = [];
      for (const prefix of combinations) for (const value of values) longer.push([...prefix, value]);
      combinations = longer;
    }
    for (const combination of combinations) rows.composite.push({ code: parameter.code, components: combination });
  }
}

/** The parts of HumanName and Address that are searchable (each part, and so is the whole). */
const stringParts = [
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
];

function pushString(out: Record<string, unknown>[], code: string | undefined, text: string): void {
  const normalized = normalizeSearchString(text);
  out.push(code === undefined ? { value: text, normalized } : { code, value: text, normalized });
}

function addStrings(out: Record<string, unknown>[], code: string | undefined, value: unknown): void {
  if (typeof value === 'string') {
    if (value.length > 0) pushString(out, code, value);
    return;
  }
  if (!isObject(value)) return;
  for (const key of stringParts) {
    const part = value[key];
    if (typeof part === 'string') {
      if (part.length > 0) pushString(out, code, part);
    } else if (Array.isArray(part)) {
      for (const p of part) if (typeof p === 'string' && p.length > 0) pushString(out, code, p);
    }
  }
}

function pushToken(
  out: Record<string, unknown>[],
  code: string | undefined,
  system: string | null,
  value: string | null,
  display: string | null,
): void {
  out.push(code === undefined ? { system, value, display } : { code, system, value, display });
}

function addTokens(out: Record<string, unknown>[], code: string | undefined, value: unknown): void {
  if (typeof value === 'string') {
    if (value.length > 0) pushToken(out, code, null, value, null);
    return;
  }
  if (typeof value === 'boolean' || typeof value === 'number') {
    pushToken(out, code, null, String(value), null);
    return;
  }
  if (!isObject(value)) return;
  if (Array.isArray(value.coding) || typeof value.text === 'string') {
    // CodeableConcept: each coding, plus its text for :text searches.
    if (Array.isArray(value.coding)) {
      for (const coding of value.coding as unknown[]) {
        if (isObject(coding)) pushToken(out, code, str(coding.system), str(coding.code), str(coding.display));
      }
    }
    if (typeof value.text === 'string') pushToken(out, code, null, null, value.text);
    return;
  }
  if ('value' in value && !('code' in value)) {
    // Identifier or ContactPoint (both may have a system too, so test them before Coding).
    const display = isObject(value.type) && typeof value.type.text === 'string' ? value.type.text : null;
    pushToken(out, code, str(value.system), str(value.value), display);
    return;
  }
  if ('code' in value || 'system' in value) {
    // Coding
    pushToken(out, code, str(value.system), str(value.code), str(value.display));
  }
}

// Type names are bounded like ids: both are b-tree indexed (search_reference_target_idx, migration 13).
const referencePattern = /(?:^|\/)([A-Z][A-Za-z]{0,63})\/([A-Za-z0-9\-.]{1,64})(?:\/_history\/[A-Za-z0-9\-.]+)?$/;

/**
 * A relative reference's `Type/id` (its version left aside). An absolute URL has none, though it
 * ends in `Patient/123`: that is a patient of the server it names, and given the target here it
 * was found by `Observation?subject=Patient/123`, `patient=123`, chains, `_include`, `_revinclude`
 * and access criteria as this server's Patient/123. It is found by its whole text only.
 */
function referenceTarget(reference: string): RegExpExecArray | null {
  return isAbsoluteReference(reference) ? null : referencePattern.exec(reference);
}

/**
 * The `target_type` and `target_id` an index row of this reference text has (undefined: both
 * NULL). Searches by a reference's whole text use it to reach the rows through an index
 * (search/searchSql.ts): the target is a function of the text alone.
 */
export function indexedReferenceTarget(reference: string): { type: string; id: string } | undefined {
  const target = referenceTarget(reference);
  return target ? { type: target[1], id: target[2] } : undefined;
}

function pushDate(
  out: Record<string, unknown>[],
  code: string | undefined,
  low: string | null,
  high: string | null,
): void {
  out.push(code === undefined ? { low, high } : { code, low, high });
}

function addDates(out: Record<string, unknown>[], code: string | undefined, value: unknown): void {
  if (typeof value === 'string') {
    const range = dateRange(value);
    if (range) pushDate(out, code, range.low, range.high);
    return;
  }
  if (!isObject(value)) return;
  if ('start' in value || 'end' in value) {
    // Period: an open end is unbounded on that side.
    const start = typeof value.start === 'string' ? dateRange(value.start) : undefined;
    const end = typeof value.end === 'string' ? dateRange(value.end) : undefined;
    if (!start && !end) return;
    pushDate(out, code, start?.low ?? null, end?.high ?? null);
    return;
  }
  if (Array.isArray(value.event)) {
    // Timing: its events.
    for (const event of value.event as unknown[]) {
      if (typeof event !== 'string') continue;
      const range = dateRange(event);
      if (range) pushDate(out, code, range.low, range.high);
    }
  }
}

type Row = Record<string, unknown>;

const repeatedCodes = new WeakMap<readonly SearchParamDefinition[], boolean>();

/** Does a code appear twice in the list (then rows of two parameters may repeat each other)? */
function codesRepeat(parameters: readonly SearchParamDefinition[]): boolean {
  let repeat = repeatedCodes.get(parameters);
  if (repeat === undefined) {
    const codes = parameters.map((p) => p.code);
    repeat = new Set(codes).size !== codes.length;
    // The registry hands out the same list for a type until it changes.
    repeatedCodes.set(parameters, repeat);
  }
  return repeat;
}

/** Are two rows of one table (and one code) equal? As comparing their JSON would say. */
function sameRow(type: SearchParamType, a: Row, b: Row): boolean {
  switch (type) {
    case 'token':
      return a.system === b.system && a.value === b.value && a.display === b.display;
    case 'date':
      return a.low === b.low && a.high === b.high;
    case 'quantity':
      return a.value === b.value && a.system === b.system && a.unit_code === b.unit_code;
    case 'reference':
      return a.reference === b.reference; // the target is read from the reference
    case 'string': // normalized is a function of value
    case 'number':
    case 'uri':
      return a.value === b.value;
    default: {
      // Composite: the same component values in the same order.
      const x = a.components as Row[];
      const y = b.components as Row[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!sameFlatRow(x[i], y[i])) return false;
      return true;
    }
  }
}

/** Equal flat objects (a component's index values: text, numbers, nulls), key order included as in JSON. */
function sameFlatRow(a: Row, b: Row): boolean {
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== other[i] || a[keys[i]] !== b[keys[i]]) return false;
  return true;
}

/** Removes from table[start..] the rows equal to an earlier one of that part, keeping the first. */
function dedupeFrom(table: Row[], start: number, type: SearchParamType): void {
  if (table.length - start > 8) {
    const kept = unique(table.slice(start), (row) => rowKey(type, row));
    table.length = start;
    for (const row of kept) table.push(row);
    return;
  }
  let end = start;
  for (let i = start; i < table.length; i++) {
    const row = table[i];
    let seen = false;
    for (let j = start; j < end && !seen; j++) seen = sameRow(type, table[j], row);
    if (!seen) table[end++] = row;
  }
  table.length = end;
}

/**
 * A text that is the same for two rows of one table exactly when the rows are equal: each field
 * as its length and text (or `~` for null), so that no value can run into the next. Cheaper
 * than JSON.stringify for the hundreds of thousands of rows of an import.
 */
function part(value: unknown): string {
  if (value === null || value === undefined) return '~';
  const text = typeof value === 'string' ? value : String(value);
  return `${text.length}:${text}`;
}

function rowKey(type: SearchParamType, row: Row): string {
  switch (type) {
    case 'token':
      return part(row.code) + part(row.system) + part(row.value) + part(row.display);
    case 'date':
      return part(row.code) + part(row.low) + part(row.high);
    case 'quantity':
      return part(row.code) + part(row.value) + part(row.system) + part(row.unit_code);
    case 'reference':
      return part(row.code) + part(row.reference);
    case 'string':
    case 'number':
    case 'uri':
      return part(row.code) + part(row.value);
    default:
      return JSON.stringify(row);
  }
}

function unique<T extends Row>(list: T[], key: (row: T) => string): T[] {
  if (list.length < 2) return list;
  const seen = new Set<string>();
  const out: T[] = [];
  for (const row of list) {
    const k = key(row);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(row);
  }
  return out;
}

function dedupe(rows: IndexRows): IndexRows {
  const out = emptyIndexRows() as unknown as Record<keyof IndexRows, Row[]>;
  for (const type of Object.keys(out) as (keyof IndexRows)[]) {
    out[type] = unique(rows[type] as unknown as Row[], (row) => rowKey(type, row));
  }
  return out as unknown as IndexRows;
}
