import { comparisonAsParameter, parseFilterExpression } from './filterExpression';
import { errors } from '../fhir/fhirError';
import { checkStorableText } from '../fhir/jsonInputCheck';
import { isKnownResourceType } from '../validation/fhirJsonSchema';
import type { SearchParamDefinition, SearchParameterRegistry } from './searchParameterRegistry';
import { searchLimitError, searchLimits } from './searchLimits';

export type TotalMode = 'none' | 'estimate' | 'accurate';
export type SummaryMode = 'true' | 'text' | 'data' | 'count' | 'false';

/** `_id`, `_lastUpdated`, or a SearchParameter's definition. */
export type FilterParameter = SearchParamDefinition | 'id' | 'lastUpdated';

/** `code[:modifier]=v1,v2`: the resource has a value matching any of the values. */
export interface ValueFilter {
  kind: 'value';
  code: string;
  parameter: FilterParameter;
  modifier?: string;
  values: string[];
  /** For composite parameters, the type of each `$`-separated part. */
  componentTypes?: SearchParamDefinition['type'][];
}

/** `subject:Patient.name=x`: the referenced resource (of `targetType`) matches `filter`. */
export interface ChainFilter {
  kind: 'chain';
  code: string;
  parameter: SearchParamDefinition;
  targetType: string;
  filter: ValueFilter;
}

/** `_has:Observation:patient:code=x`: some Observation pointing here through `patient` matches `filter`. */
export interface HasFilter {
  kind: 'has';
  sourceType: string;
  referenceParameter: SearchParamDefinition;
  filter: ValueFilter;
}

export type SearchFilter = ValueFilter | ChainFilter | HasFilter;

export interface SortRule {
  code: string;
  parameter: FilterParameter;
  descending: boolean;
}

export interface IncludeRule {
  /** The type whose reference parameter is followed. */
  sourceType: string;
  parameter: SearchParamDefinition;
  targetType?: string;
  iterate: boolean;
}

export interface SearchRequest {
  resourceType: string;
  filters: SearchFilter[];
  sort: SortRule[];
  count: number;
  offset: number;
  total: TotalMode;
  include: IncludeRule[];
  revInclude: IncludeRule[];
  summary?: SummaryMode;
  /** Top-level elements to return (from `_elements` or its alias `fields`). */
  elements?: string[];
  /** `_compartment=Patient/123`: only resources in these compartments. */
  compartments: string[];
}

export const defaultSearchCount = 20;
export const maxSearchCount = 1000;

/** Parameters that are neither filters nor supported: refused rather than silently ignored. */
export const unsupportedSearchParameters: ReadonlySet<string> = new Set([
  '_contained',
  '_containedType',
  '_text',
  '_content',
  '_list',
  '_query',
  '_cursor',
]);
const ignored = new Set(['_format', '_pretty']);

export type QueryParams = Record<string, string | string[] | undefined>;

/** Turns the query parameters of `GET /fhir/R4/{type}?…` into a checked search request. */
export function parseSearchRequest(
  resourceType: string,
  query: QueryParams,
  registry: SearchParameterRegistry,
): SearchRequest {
  const request: SearchRequest = {
    resourceType,
    filters: [],
    sort: [],
    count: defaultSearchCount,
    offset: 0,
    total: 'none',
    include: [],
    revInclude: [],
    compartments: [],
  };
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    // Batch entries and criteria are not URLs the HTTP layer checked: values reach SQL as text.
    checkStorableText(key, key);
    for (const value of values) checkStorableText(value, key);
    checkLength(key, key);
    for (const value of values) checkLength(value, key);
    const [name, suffix] = splitOnce(key, ':');
    if (ignored.has(key)) continue;
    if (key === '_count') request.count = parseInteger(key, last(values), 0, maxSearchCount);
    else if (key === '_offset') request.offset = parseInteger(key, last(values), 0, Number.MAX_SAFE_INTEGER);
    else if (key === '_total') request.total = parseTotal(last(values));
    else if (key === '_summary') request.summary = parseSummary(last(values));
    else if (key === '_elements' || key === 'fields') {
      request.elements = values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
      if (request.elements.length > searchLimits.maxElements) {
        throw searchLimitError(key, `${key} may name at most ${searchLimits.maxElements} elements`);
      }
    } else if (key === '_sort') {
      const keys = values.flatMap((v) => v.split(','));
      if (keys.length > searchLimits.maxSortKeys) {
        throw searchLimitError('_sort', `_sort may have at most ${searchLimits.maxSortKeys} keys`);
      }
      request.sort = keys.map((v) => parseSort(resourceType, v.trim(), registry));
    } else if (name === '_include' || name === '_revinclude') {
      if (suffix !== undefined && suffix !== 'iterate') throw errors.invalid(`Unsupported modifier on ${key}`, key);
      for (const value of values) {
        const rule = parseInclude(key, value, suffix === 'iterate', registry);
        (name === '_include' ? request.include : request.revInclude).push(rule);
        if (request.include.length + request.revInclude.length > searchLimits.maxIncludeRules) {
          throw searchLimitError(
            key,
            `_include and _revinclude may have at most ${searchLimits.maxIncludeRules} rules together`,
          );
        }
      }
    } else if (key === '_compartment') {
      const compartments = values.flatMap((v) => v.split(','));
      if (compartments.length > searchLimits.maxValuesPerParameter) throw tooManyValues('_compartment');
      for (const value of compartments) {
        if (!/^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/.test(value)) {
          throw errors.invalid(`Invalid _compartment "${value}": expected Type/id, e.g. Patient/123`, '_compartment');
        }
        request.compartments.push(value);
      }
    } else if (key === '_filter') {
      for (const value of values) {
        for (const comparison of parseFilterExpression(value)) {
          const parameter = resolveParameter(resourceType, comparison.code, registry);
          const type = typeof parameter === 'string' ? parameter : parameter.type;
          const [filterKey, filterValue] = comparisonAsParameter(comparison, type);
          request.filters.push(parseValueFilter(resourceType, filterKey, filterValue, registry));
        }
      }
    } else if (name === '_has') {
      for (const value of values) request.filters.push(parseHas(resourceType, key, value, registry));
    } else if (unsupportedSearchParameters.has(name)) {
      throw errors.notSupported(`Search parameter "${key}" is not supported`);
    } else if (name.includes('.') || (suffix?.includes('.') ?? false)) {
      for (const value of values) request.filters.push(parseChain(resourceType, key, value, registry));
    } else {
      for (const value of values) request.filters.push(parseValueFilter(resourceType, key, value, registry));
    }
    if (request.filters.length > searchLimits.maxFilters) {
      throw searchLimitError(key, `A search may have at most ${searchLimits.maxFilters} search parameters`);
    }
    const total = request.filters.reduce((sum, filter) => sum + filterValues(filter).length, 0);
    if (total > searchLimits.maxValues) {
      throw searchLimitError(key, `A search may have at most ${searchLimits.maxValues} values in all its parameters`);
    }
  }
  return request;
}

function filterValues(filter: SearchFilter): string[] {
  return filter.kind === 'value' ? filter.values : filter.filter.values;
}

function checkLength(text: string, key: string): void {
  if (text.length > searchLimits.maxValueLength) {
    throw searchLimitError(
      key,
      `Search parameter "${key.slice(0, 64)}" is ${text.length} characters long; at most ${searchLimits.maxValueLength} are allowed`,
    );
  }
}

function tooManyValues(key: string) {
  return searchLimitError(key, `"${key}" may have at most ${searchLimits.maxValuesPerParameter} values`);
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const index = value.indexOf(separator);
  return index < 0 ? [value, undefined] : [value.slice(0, index), value.slice(index + 1)];
}

function last(values: string[]): string {
  return values[values.length - 1];
}

function parseInteger(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw errors.invalid(`Invalid ${name}: "${value}" is not a whole number`, name);
  const number = Number(value);
  if (number < min || number > max) throw errors.invalid(`Invalid ${name}: must be between ${min} and ${max}`, name);
  return number;
}

function parseTotal(value: string): TotalMode {
  if (value === 'none' || value === 'estimate' || value === 'accurate') return value;
  throw errors.invalid(`Invalid _total: "${value}" (expected none, estimate or accurate)`, '_total');
}

function parseSummary(value: string): SummaryMode {
  if (value === 'true' || value === 'text' || value === 'data' || value === 'count' || value === 'false') return value;
  throw errors.invalid(`Invalid _summary: "${value}" (expected true, text, data, count or false)`, '_summary');
}

function resolveParameter(resourceType: string, code: string, registry: SearchParameterRegistry): FilterParameter {
  if (code === '_id') return 'id';
  if (code === '_lastUpdated') return 'lastUpdated';
  const parameter = registry.get(resourceType, code);
  if (!parameter) throw errors.invalid(`Unknown search parameter "${code}" for ${resourceType}`, code);
  return parameter;
}

function referenceParameter(
  resourceType: string,
  code: string,
  registry: SearchParameterRegistry,
  key: string,
): SearchParamDefinition {
  const parameter = registry.get(resourceType, code);
  if (!parameter) throw errors.invalid(`Unknown search parameter "${code}" for ${resourceType}`, key);
  if (parameter.type !== 'reference') {
    throw errors.invalid(`Search parameter "${code}" of ${resourceType} is not a reference parameter`, key);
  }
  return parameter;
}

function checkType(type: string, key: string): void {
  if (!isKnownResourceType(type)) throw errors.invalid(`Unknown resource type "${type}" in ${key}`, key);
}

function parseSort(resourceType: string, value: string, registry: SearchParameterRegistry): SortRule {
  const descending = value.startsWith('-');
  const code = descending ? value.slice(1) : value;
  if (!code) throw errors.invalid('Invalid _sort: empty key', '_sort');
  const parameter = resolveParameter(resourceType, code, registry);
  if (typeof parameter !== 'string' && (parameter.type === 'composite' || parameter.type === 'special')) {
    throw errors.invalid(`Cannot sort by "${code}" (a ${parameter.type} parameter)`, '_sort');
  }
  return { code, parameter, descending };
}

function parseInclude(key: string, value: string, iterate: boolean, registry: SearchParameterRegistry): IncludeRule {
  if (value === '*' || value.includes('*'))
    throw errors.invalid(`${key}=* is not supported: name the parameter (Type:param)`, key);
  const parts = value.split(':');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p.length === 0)) {
    throw errors.invalid(`Invalid ${key} "${value}": expected ResourceType:search-param[:target-type]`, key);
  }
  const [sourceType, code, targetType] = parts;
  checkType(sourceType, key);
  if (targetType) checkType(targetType, key);
  return { sourceType, parameter: referenceParameter(sourceType, code, registry, key), targetType, iterate };
}

const modifiersByType: Record<string, string[]> = {
  id: ['missing', 'not'],
  lastUpdated: ['missing'],
  string: ['exact', 'contains', 'missing'],
  token: ['not', 'text', 'missing'],
  reference: ['missing'],
  date: ['missing'],
  number: ['missing'],
  quantity: ['missing'],
  uri: ['below', 'above', 'missing'],
  composite: ['missing'],
};

export function parseValueFilter(
  resourceType: string,
  key: string,
  value: string,
  registry: SearchParameterRegistry,
): ValueFilter {
  const [code, modifier] = splitOnce(key, ':');
  const parameter = resolveParameter(resourceType, code, registry);
  const type = typeof parameter === 'string' ? parameter : parameter.type;
  if (type === 'special') {
    throw errors.notSupported(`Search parameter "${code}" of type special is not supported`);
  }
  let componentTypes: SearchParamDefinition['type'][] | undefined;
  if (type === 'composite' && typeof parameter !== 'string') {
    componentTypes = (parameter.components ?? []).map((c) => registry.typeOfUrl(c.definition) ?? 'special');
    if (componentTypes.length === 0 || componentTypes.includes('special') || componentTypes.includes('composite')) {
      throw errors.notSupported(`Composite search parameter "${code}" has components this server cannot search`);
    }
  }
  if (modifier !== undefined) {
    const isTypeModifier = type === 'reference' && /^[A-Z][A-Za-z]+$/.test(modifier);
    if (!isTypeModifier && !modifiersByType[type]?.includes(modifier)) {
      throw errors.invalid(`Unsupported modifier ":${modifier}" for search parameter "${code}"`, key);
    }
    if (isTypeModifier) checkType(modifier, key);
  }
  if (modifier === 'missing' && value !== 'true' && value !== 'false') {
    throw errors.invalid(`Invalid value for ${key}: expected true or false`, key);
  }
  const values = splitValues(value);
  if (values.length > searchLimits.maxValuesPerParameter) throw tooManyValues(key);
  if (values.length === 0 || values.some((v) => v.length === 0)) {
    throw errors.invalid(`Empty value for search parameter "${key}"`, key);
  }
  if (componentTypes && modifier !== 'missing') {
    for (const v of values) {
      if (v.split('$').length !== componentTypes.length) {
        throw errors.invalid(
          `Composite parameter "${code}" needs ${componentTypes.length} values joined by $, e.g. code$value`,
          key,
        );
      }
    }
  }
  return { kind: 'value', code, parameter, modifier, values, componentTypes };
}

function parseChain(resourceType: string, key: string, value: string, registry: SearchParameterRegistry): ChainFilter {
  const dot = key.indexOf('.');
  const head = key.slice(0, dot);
  const rest = key.slice(dot + 1);
  if (rest.includes('.')) throw errors.notSupported(`Only one level of chaining is supported: "${key}"`);
  const [code, typeModifier] = splitOnce(head, ':');
  const parameter = referenceParameter(resourceType, code, registry, key);
  let targetType = typeModifier;
  if (targetType) checkType(targetType, key);
  else if (parameter.target.length === 1) targetType = parameter.target[0];
  else
    throw errors.invalid(
      `Chained parameter "${code}" can point at several types: name one, e.g. ${code}:${parameter.target[0] ?? 'Patient'}.${rest}`,
      key,
    );
  return { kind: 'chain', code, parameter, targetType, filter: parseValueFilter(targetType, rest, value, registry) };
}

function parseHas(resourceType: string, key: string, value: string, registry: SearchParameterRegistry): HasFilter {
  const parts = key.split(':');
  if (parts.length < 4) throw errors.invalid(`Invalid ${key}: expected _has:Type:reference-param:search-param`, key);
  const [, sourceType, referenceCode, ...filterParts] = parts;
  if (filterParts[0] === '_has') throw errors.notSupported('Nested _has is not supported');
  checkType(sourceType, key);
  const referenceParameterDefinition = referenceParameter(sourceType, referenceCode, registry, key);
  if (referenceParameterDefinition.target.length > 0 && !referenceParameterDefinition.target.includes(resourceType)) {
    throw errors.invalid(`${sourceType}.${referenceCode} cannot point at ${resourceType}`, key);
  }
  return {
    kind: 'has',
    sourceType,
    referenceParameter: referenceParameterDefinition,
    filter: parseValueFilter(sourceType, filterParts.join(':'), value, registry),
  };
}

/** Splits on commas that are not escaped with a backslash. */
function splitValues(value: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\' && i + 1 < value.length) {
      current += value[++i];
    } else if (value[i] === ',') {
      parts.push(current);
      current = '';
    } else {
      current += value[i];
    }
  }
  parts.push(current);
  return parts;
}
