import { errors } from '../fhir/fhirError';
import { isAbsoluteReference } from './absoluteReference';
import { dateOverlapCondition } from './dateOverlap';
import { dateRange } from './dateRange';
import { indexedReferenceTarget, normalizeSearchString } from './indexRows';
import { exceeds, indexedPrefixLength, leadingCharacters } from './indexedPrefix';
import type { SearchFilter, SearchRequest, SortRule, ValueFilter } from './searchRequest';

/**
 * Names a column of the index value being tested: a table column, or a field of a composite
 * component. `indexed` is set for table columns, whose b-tree indexes hold a bounded prefix of
 * free-text values (indexedPrefix.ts): conditions on them test that prefix too, so the index is used.
 */
type Column = ((name: string) => string) & { indexed?: boolean };

/** Collects positional parameters while a statement is built, and hands out table aliases. */
export class SqlParams {
  readonly values: unknown[] = [];
  private aliases = 0;
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  alias(prefix: string): string {
    return `${prefix}${++this.aliases}`;
  }
}

export interface SearchScope {
  /**
   * SQL a row (`alias`) of `resourceType` must satisfy for the caller to see it: project isolation
   * and access policy (server/search/accessRestriction.ts). Absent for the server itself and super admins.
   */
  visible?(resourceType: string, alias: string, params: SqlParams): string;
}

const prefixes = ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap'] as const;
type Prefix = (typeof prefixes)[number];

function splitPrefix(value: string): { prefix: Prefix; rest: string } {
  const head = value.slice(0, 2) as Prefix;
  if (prefixes.includes(head) && value.length > 2 && !/^[a-z]/.test(value.slice(2))) {
    return { prefix: head, rest: value.slice(2) };
  }
  return { prefix: 'eq', rest: value };
}

/** The WHERE clause (without the word) selecting current resources of the request's type, as alias `r`. */
export function buildWhere(request: SearchRequest, params: SqlParams, scope: SearchScope): string {
  const clauses = [`r.resource_type = ${params.add(request.resourceType)}`, 'NOT r.deleted'];
  if (scope.visible) clauses.push(`(${scope.visible(request.resourceType, 'r', params)})`);
  if (request.compartments.length > 0) clauses.push(`r.compartments && ${params.add(request.compartments)}::text[]`);
  const filters = filtersClause(request.filters, params, 'r', scope);
  if (filters !== 'TRUE') clauses.push(filters);
  return clauses.join(' AND ');
}

/** All `filters` (AND) against the row `alias`; 'TRUE' when there are none. */
export function filtersClause(filters: SearchFilter[], params: SqlParams, alias: string, scope: SearchScope): string {
  const clauses: string[] = [];
  const { ranges, others } = collectDateRanges(filters);
  for (const range of ranges) clauses.push(dateRangeClause(range, params, alias));
  for (const filter of others) clauses.push(filterClause(filter, params, alias, scope));
  return clauses.length > 0 ? clauses.join(' AND ') : 'TRUE';
}

interface DateRangeFilter {
  code: string;
  lower?: { at: string; inclusive: boolean };
  upper?: { at: string; inclusive: boolean };
}

/**
 * `date=ge2020-01&date=lt2020-02` as one overlap test, answered by two bounded index scans
 * (dateOverlap.ts), instead of two half-table scans. Only a plain lower bound (ge, gt) and a plain
 * upper bound (le, lt) of the same parameter are merged; everything else stays as it is.
 */
function collectDateRanges(filters: readonly SearchFilter[]): { ranges: DateRangeFilter[]; others: SearchFilter[] } {
  const candidates = new Map<string, { lower: ValueFilter[]; upper: ValueFilter[] }>();
  for (const filter of filters) {
    if (filter.kind !== 'value' || typeof filter.parameter === 'string' || filter.parameter.type !== 'date') continue;
    if (filter.modifier || filter.values.length !== 1) continue;
    const prefix = filter.values[0].slice(0, 2);
    const entry = candidates.get(filter.code) ?? { lower: [], upper: [] };
    if (prefix === 'ge' || prefix === 'gt') entry.lower.push(filter);
    else if (prefix === 'le' || prefix === 'lt') entry.upper.push(filter);
    candidates.set(filter.code, entry);
  }
  const merged = new Set<SearchFilter>();
  const ranges: DateRangeFilter[] = [];
  for (const [code, { lower, upper }] of candidates) {
    if (lower.length !== 1 || upper.length !== 1) continue;
    const low = dateRange(lower[0].values[0].slice(2));
    const high = dateRange(upper[0].values[0].slice(2));
    if (!low || !high) continue; // Malformed: the ordinary path reports it.
    const gt = lower[0].values[0].startsWith('gt');
    const le = upper[0].values[0].startsWith('le');
    ranges.push({
      code,
      // ge v: ends on or after v's start; gt v: ends after v's end. lt v: starts before v's start; le v: starts by v's end.
      lower: { at: gt ? low.high : low.low, inclusive: !gt },
      upper: { at: le ? high.high : high.low, inclusive: le },
    });
    merged.add(lower[0]);
    merged.add(upper[0]);
  }
  return { ranges, others: filters.filter((f) => !merged.has(f)) };
}

function dateRangeClause(range: DateRangeFilter, params: SqlParams, r: string): string {
  const lower = range.lower as { at: string; inclusive: boolean };
  const upper = range.upper as { at: string; inclusive: boolean };
  // An inverted range matches nothing (and PostgreSQL refuses to build it).
  if (Date.parse(lower.at) > Date.parse(upper.at)) return 'FALSE';
  const t = params.alias('t');
  const bounds = `${lower.inclusive ? '[' : '('}${upper.inclusive ? ']' : ')'}`;
  const from = `${params.add(lower.at)}::timestamptz`;
  const to = `${params.add(upper.at)}::timestamptz`;
  return `EXISTS (SELECT 1 FROM search_date ${t} WHERE ${t}.resource_type = ${r}.resource_type AND ${t}.resource_id = ${r}.id
    AND ${t}.code = ${params.add(range.code)} AND ${dateOverlapCondition(t, from, to, bounds)})`;
}

function filterClause(filter: SearchFilter, params: SqlParams, r: string, scope: SearchScope): string {
  if (filter.kind === 'chain') {
    // The reference row points at a current resource of the target type that matches the inner filter.
    const t = params.alias('t');
    const target = params.alias('r');
    const project = scope.visible ? ` AND (${scope.visible(filter.targetType, target, params)})` : '';
    return `EXISTS (SELECT 1 FROM search_reference ${t} JOIN resources ${target}
      ON ${target}.resource_type = ${t}.target_type AND ${target}.id = ${t}.target_id AND NOT ${target}.deleted${project}
      WHERE ${t}.resource_type = ${r}.resource_type AND ${t}.resource_id = ${r}.id AND ${t}.code = ${params.add(filter.code)}
        AND ${t}.target_type = ${params.add(filter.targetType)} AND ${valueFilterClause(filter.filter, params, target)})`;
  }
  if (filter.kind === 'has') {
    const t = params.alias('t');
    const source = params.alias('r');
    const project = scope.visible ? ` AND (${scope.visible(filter.sourceType, source, params)})` : '';
    return `EXISTS (SELECT 1 FROM search_reference ${t} JOIN resources ${source}
      ON ${source}.resource_type = ${t}.resource_type AND ${source}.id = ${t}.resource_id AND NOT ${source}.deleted${project}
      WHERE ${t}.target_type = ${r}.resource_type AND ${t}.target_id = ${r}.id
        AND ${t}.resource_type = ${params.add(filter.sourceType)} AND ${t}.code = ${params.add(filter.referenceParameter.code)}
        AND ${valueFilterClause(filter.filter, params, source)})`;
  }
  return valueFilterClause(filter, params, r);
}

function valueFilterClause(filter: ValueFilter, params: SqlParams, r: string): string {
  const { parameter } = filter;
  if (parameter === 'id') {
    if (filter.modifier === 'missing') return filter.values[0] === 'true' ? 'FALSE' : 'TRUE';
    const match = `${r}.id = ANY(${params.add(filter.values)}::text[])`;
    return filter.modifier === 'not' ? `NOT (${match})` : match;
  }
  if (parameter === 'lastUpdated') {
    if (filter.modifier === 'missing') return filter.values[0] === 'true' ? 'FALSE' : 'TRUE';
    return `(${filter.values.map((v) => dateComparison(v, `${r}.last_updated`, `${r}.last_updated`, params, filter.code)).join(' OR ')})`;
  }
  const table = tableFor(parameter.type);
  const t = params.alias('t');
  const owner = `${t}.resource_type = ${r}.resource_type AND ${t}.resource_id = ${r}.id AND ${t}.code = ${params.add(parameter.code)}`;
  if (filter.modifier === 'missing') {
    const exists = `EXISTS (SELECT 1 FROM search_${table} ${t} WHERE ${owner})`;
    return filter.values[0] === 'true' ? `NOT ${exists}` : exists;
  }
  const tableColumn: Column = Object.assign((name: string) => `${t}.${name}`, { indexed: true });
  const alternatives = filter.values.map((value) =>
    filter.componentTypes
      ? compositeCondition(filter, value, params, t)
      : valueCondition(parameter.type, filter, value, params, tableColumn),
  );
  const exists = `EXISTS (SELECT 1 FROM search_${table} ${t} WHERE ${owner} AND (${alternatives.join(' OR ')}))`;
  return filter.modifier === 'not' ? `NOT ${exists}` : exists;
}

/** Every `$`-separated part matches the same composite row, component by component. */
function compositeCondition(filter: ValueFilter, value: string, params: SqlParams, c: string): string {
  const types = filter.componentTypes ?? [];
  const parts = value.split('$');
  const plain: ValueFilter = { ...filter, modifier: undefined };
  return parts
    .map((part, index) => {
      const type = types[index];
      const col: Column = (name) => {
        const field = `((${c}.components->${index})->>'${name}')`;
        if (name === 'low' || name === 'high') return `${field}::timestamptz`;
        if (name === 'value' && (type === 'number' || type === 'quantity')) return `${field}::numeric`;
        return field;
      };
      return `(${valueCondition(type, plain, part, params, col)})`;
    })
    .join(' AND ');
}

function tableFor(type: string): string {
  switch (type) {
    case 'composite':
    case 'string':
    case 'token':
    case 'reference':
    case 'date':
    case 'number':
    case 'quantity':
    case 'uri':
      return type;
    default:
      throw errors.notSupported(`Search parameters of type ${type} are not supported yet`);
  }
}

function valueCondition(type: string, filter: ValueFilter, value: string, params: SqlParams, col: Column): string {
  switch (type) {
    case 'string': {
      const normalized = normalizeSearchString(value);
      if (filter.modifier === 'exact') {
        // The normalized prefix narrows through the index; the exact value decides.
        const prefix = col.indexed ? `${equalsPrefix(col('normalized'), normalized, 'string', params)} AND ` : '';
        return `${prefix}${col('value')} = ${params.add(value)}`;
      }
      if (filter.modifier === 'contains')
        return `${col('normalized')} LIKE ${params.add(`%${escapeLike(normalized)}%`)}`;
      return startsWith(col, 'normalized', normalized, 'string', params);
    }
    case 'token':
      return tokenCondition(filter, value, params, col);
    case 'reference':
      return referenceCondition(filter, value, params, col);
    case 'date':
      return dateComparison(value, col('low'), col('high'), params, filter.code);
    case 'number':
      return numberComparison(value, col('value'), params, filter.code);
    case 'quantity': {
      const [number, system, code] = value.split('|');
      const parts = [numberComparison(number, col('value'), params, filter.code)];
      if (system) parts.push(`${col('system')} = ${params.add(system)}`);
      if (code) parts.push(`${col('unit_code')} = ${params.add(code)}`);
      return parts.join(' AND ');
    }
    case 'uri':
      if (filter.modifier === 'below') return startsWith(col, 'value', value, 'uri', params);
      // The stored value is the prefix here: as a LIKE pattern its own % and _ were wildcards
      // (a stored `http://%` was "above" every URL searched).
      if (filter.modifier === 'above') return `starts_with(${params.add(value)}::text, ${col('value')})`;
      return equals(col, 'value', value, 'uri', params);
    default:
      throw errors.notSupported(`Search parameters of type ${type} are not supported yet`);
  }
}

function tokenCondition(filter: ValueFilter, value: string, params: SqlParams, col: Column): string {
  if (filter.modifier === 'text') {
    return `lower(${col('display')}) LIKE ${params.add(`${escapeLike(value.toLowerCase())}%`)}`;
  }
  const bar = value.indexOf('|');
  if (bar < 0) return equals(col, 'value', value, 'token', params);
  const system = value.slice(0, bar);
  const code = value.slice(bar + 1);
  if (system === '') return `${col('system')} IS NULL AND ${equals(col, 'value', code, 'token', params)}`;
  if (code === '') return equals(col, 'system', system, 'token', params);
  return `${equals(col, 'system', system, 'token', params)} AND ${equals(col, 'value', code, 'token', params)}`;
}

/**
 * `column = value`, on the indexed prefix for a table column. A value shorter than the prefix is
 * decided by the prefix alone (`left(column, n) = value` holds exactly when `column = value`); adding
 * the full comparison then made the planner multiply two selectivities of the same test, expect
 * almost no rows, and sort 100,000 matching Observations instead of walking them in order
 * (`Observation?code=…` took 0.7 s at 1M resources instead of 11 ms).
 */
function equals(col: Column, name: string, value: string, kind: keyof typeof indexedPrefixLength, params: SqlParams) {
  if (!col.indexed) return `${col(name)} = ${params.add(value)}`;
  const prefix = equalsPrefix(col(name), value, kind, params);
  return exceeds(value, indexedPrefixLength[kind] - 1) ? `${prefix} AND ${col(name)} = ${params.add(value)}` : prefix;
}

function equalsPrefix(column: string, value: string, kind: keyof typeof indexedPrefixLength, params: SqlParams) {
  const length = indexedPrefixLength[kind];
  return `left(${column}, ${length}) = ${params.add(leadingCharacters(value, length))}::text`;
}

/**
 * `column LIKE 'value%'`: for a table column on its indexed prefix (which answers alone when the
 * value fits in it), and on the whole column when the value is longer than the prefix.
 */
function startsWith(
  col: Column,
  name: string,
  value: string,
  kind: keyof typeof indexedPrefixLength,
  params: SqlParams,
): string {
  // Parameters are added only when used: PostgreSQL refuses a statement with a parameter it never sees.
  const full = () => `${col(name)} LIKE ${params.add(`${escapeLike(value)}%`)}`;
  if (!col.indexed) return full();
  const length = indexedPrefixLength[kind];
  const prefix = `left(${col(name)}, ${length}) LIKE ${params.add(`${escapeLike(leadingCharacters(value, length))}%`)}::text`;
  return exceeds(value, length) ? `${prefix} AND ${full()}` : prefix;
}

function referenceCondition(filter: ValueFilter, value: string, params: SqlParams, col: Column): string {
  // An absolute URL is matched by its whole text: its `Type/id` is another server's (absoluteReference.ts).
  const typed = isAbsoluteReference(value) ? null : /(?:^|\/)([A-Z][A-Za-z]+)\/([A-Za-z0-9\-.]{1,64})$/.exec(value);
  const typeModifier = filter.modifier && filter.modifier !== 'missing' ? filter.modifier : undefined;
  if (typed) {
    return `${col('target_type')} = ${params.add(typed[1])} AND ${col('target_id')} = ${params.add(typed[2])}`;
  }
  if (/^[A-Za-z0-9\-.]{1,64}$/.test(value)) {
    const byId = `${col('target_id')} = ${params.add(value)}`;
    return typeModifier ? `${byId} AND ${col('target_type')} = ${params.add(typeModifier)}` : byId;
  }
  const byText = `${col('reference')} = ${params.add(value)}`;
  if (!col.indexed) return byText;
  // The rows of this text have the target indexing gives it (a version's URL, `Patient/1/_history/2`),
  // or none (a canonical URL, `urn:uuid:…`): either way an index reaches them (migration 13).
  const stored = indexedReferenceTarget(value);
  return stored
    ? `${col('target_id')} = ${params.add(stored.id)} AND ${col('target_type')} = ${params.add(stored.type)} AND ${byText}`
    : `${col('target_id')} IS NULL AND ${byText}`;
}

function dateComparison(value: string, lowColumn: string, highColumn: string, params: SqlParams, code: string): string {
  const { prefix, rest } = splitPrefix(value);
  const range = dateRange(rest);
  if (!range) throw errors.invalid(`Invalid date value "${value}" for search parameter "${code}"`, code);
  // NULL bounds are open ends (a Period without an end). Plain comparisons, not COALESCE, so that
  // PostgreSQL can use the (low, high) index.
  const low = lowColumn;
  const high = highColumn;
  const openLow = (condition: string) => `(${low} IS NULL OR ${condition})`;
  const openHigh = (condition: string) => `(${high} IS NULL OR ${condition})`;
  // Bound only when used: PostgreSQL refuses a statement with a parameter it never sees.
  const vLow = () => `${params.add(range.low)}::timestamptz`;
  const vHigh = () => `${params.add(range.high)}::timestamptz`;
  switch (prefix) {
    case 'eq':
      return `(${low} >= ${vLow()} AND ${high} <= ${vHigh()})`;
    case 'ne':
      return `NOT COALESCE(${low} >= ${vLow()} AND ${high} <= ${vHigh()}, false)`;
    case 'gt':
      return openHigh(`${high} > ${vHigh()}`);
    case 'lt':
      return openLow(`${low} < ${vLow()}`);
    case 'ge':
      return openHigh(`${high} >= ${vLow()}`);
    case 'le':
      return openLow(`${low} <= ${vHigh()}`);
    case 'sa':
      return `${low} > ${vHigh()}`;
    case 'eb':
      return `${high} < ${vLow()}`;
    case 'ap': {
      // Approximately: overlaps the value widened by 10% of its distance from now (at least a day).
      const now = Date.now();
      const margin = Math.max(86_400_000, Math.abs(now - Date.parse(range.low)) * 0.1);
      const aLow = `${params.add(new Date(Date.parse(range.low) - margin).toISOString())}::timestamptz`;
      const aHigh = `${params.add(new Date(Date.parse(range.high) + margin).toISOString())}::timestamptz`;
      return `(${openLow(`${low} <= ${aHigh}`)} AND ${openHigh(`${high} >= ${aLow}`)})`;
    }
  }
}

function numberComparison(value: string, column: string, params: SqlParams, code: string): string {
  const { prefix, rest } = splitPrefix(value);
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(rest)) {
    throw errors.invalid(`Invalid number "${value}" for search parameter "${code}"`, code);
  }
  const number = Number(rest);
  // A value stands for the range its precision implies: 100 means [99.5, 100.5).
  const decimals = rest.includes('.') ? rest.split('.')[1].replace(/[eE].*$/, '').length : 0;
  const half = 0.5 * 10 ** -decimals;
  const p = (n: number) => `${params.add(n)}::numeric`;
  switch (prefix) {
    case 'eq':
      return `(${column} >= ${p(number - half)} AND ${column} < ${p(number + half)})`;
    case 'ne':
      return `NOT (${column} >= ${p(number - half)} AND ${column} < ${p(number + half)})`;
    case 'gt':
    case 'sa':
      return `${column} > ${p(number)}`;
    case 'lt':
    case 'eb':
      return `${column} < ${p(number)}`;
    case 'ge':
      return `${column} >= ${p(number)}`;
    case 'le':
      return `${column} <= ${p(number)}`;
    case 'ap':
      return `(${column} >= ${p(number * 0.9)} AND ${column} <= ${p(number * 1.1)})`;
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** ORDER BY for the request; always ends with a unique key so pages never overlap. */
export function buildOrderBy(sort: readonly SortRule[], params: SqlParams): string {
  const keys = sort.map((rule) => {
    const direction = rule.descending ? 'DESC' : 'ASC';
    if (rule.parameter === 'id') return `r.id ${direction}`;
    if (rule.parameter === 'lastUpdated') return `r.last_updated ${direction}`;
    const table = tableFor(rule.parameter.type);
    const column = {
      string: 'normalized',
      token: 'value',
      reference: 'reference',
      date: 'low',
      number: 'value',
      quantity: 'value',
      uri: 'value',
    }[table];
    const aggregate = rule.descending ? 'max' : 'min';
    return `(SELECT ${aggregate}(t.${column}) FROM search_${table} t WHERE t.resource_type = r.resource_type AND t.resource_id = r.id AND t.code = ${params.add(rule.parameter.code)}) ${direction} NULLS LAST`;
  });
  if (keys.length === 0) keys.push('r.last_updated DESC');
  // The tie-break follows the last key's direction, so that "ORDER BY last_updated DESC, id DESC"
  // (or both ASC) walks resources_type_updated_idx instead of sorting the whole type.
  const lastDescending = sort.length === 0 || sort[sort.length - 1].descending;
  keys.push(`r.id ${lastDescending ? 'DESC' : 'ASC'}`);
  return keys.join(', ');
}
