import { errors } from '../fhir/fhirError';
import type { SearchParamDefinition, SearchParameterRegistry } from './searchParameterRegistry';

export type TotalMode = 'none' | 'estimate' | 'accurate';

export interface SearchFilter {
  code: string;
  /** `_id`, `_lastUpdated`, or the parameter's definition. */
  parameter: SearchParamDefinition | 'id' | 'lastUpdated';
  modifier?: string;
  /** Comma-separated alternatives (OR). */
  values: string[];
}

export interface SortRule {
  code: string;
  parameter: SearchParamDefinition | 'id' | 'lastUpdated';
  descending: boolean;
}

export interface SearchRequest {
  resourceType: string;
  filters: SearchFilter[];
  sort: SortRule[];
  count: number;
  offset: number;
  total: TotalMode;
}

export const defaultSearchCount = 20;
export const maxSearchCount = 1000;

/** Parameters that are neither filters nor yet supported: refused rather than silently ignored. */
const notYetSupported = new Set([
  '_include',
  '_revinclude',
  '_summary',
  '_elements',
  'fields',
  '_has',
  '_contained',
  '_containedType',
  '_text',
  '_content',
  '_list',
  '_query',
  '_filter',
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
  };
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    if (ignored.has(key)) continue;
    if (key === '_count') request.count = parseInteger(key, last(values), 0, maxSearchCount);
    else if (key === '_offset') request.offset = parseInteger(key, last(values), 0, Number.MAX_SAFE_INTEGER);
    else if (key === '_total') request.total = parseTotal(last(values));
    else if (key === '_sort')
      request.sort = values.flatMap((v) => v.split(',')).map((v) => parseSort(resourceType, v.trim(), registry));
    else if (notYetSupported.has(key.split(':')[0])) {
      throw errors.notSupported(`Search parameter "${key}" is not supported yet`);
    } else {
      for (const value of values) request.filters.push(parseFilter(resourceType, key, value, registry));
    }
  }
  return request;
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

function resolveParameter(
  resourceType: string,
  code: string,
  registry: SearchParameterRegistry,
): SearchFilter['parameter'] {
  if (code === '_id') return 'id';
  if (code === '_lastUpdated') return 'lastUpdated';
  const parameter = registry.get(resourceType, code);
  if (!parameter) throw errors.invalid(`Unknown search parameter "${code}" for ${resourceType}`, code);
  return parameter;
}

function parseSort(resourceType: string, value: string, registry: SearchParameterRegistry): SortRule {
  const descending = value.startsWith('-');
  const code = descending ? value.slice(1) : value;
  if (!code) throw errors.invalid('Invalid _sort: empty key', '_sort');
  return { code, parameter: resolveParameter(resourceType, code, registry), descending };
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
};

function parseFilter(
  resourceType: string,
  key: string,
  value: string,
  registry: SearchParameterRegistry,
): SearchFilter {
  const [code, modifier] = key.split(':', 2);
  if (code.includes('.')) throw errors.notSupported(`Chained search "${key}" is not supported yet`);
  const parameter = resolveParameter(resourceType, code, registry);
  const type = typeof parameter === 'string' ? parameter : parameter.type;
  if (type === 'composite' || type === 'special') {
    throw errors.notSupported(`Search parameter "${code}" of type ${type} is not supported yet`);
  }
  if (modifier !== undefined) {
    const isTypeModifier = type === 'reference' && /^[A-Z][A-Za-z]+$/.test(modifier);
    if (!isTypeModifier && !modifiersByType[type]?.includes(modifier)) {
      throw errors.invalid(`Unsupported modifier ":${modifier}" for search parameter "${code}"`, key);
    }
  }
  if (modifier === 'missing' && value !== 'true' && value !== 'false') {
    throw errors.invalid(`Invalid value for ${key}: expected true or false`, key);
  }
  const values = splitValues(value);
  if (values.length === 0 || values.some((v) => v.length === 0)) {
    throw errors.invalid(`Empty value for search parameter "${key}"`, key);
  }
  return { code, parameter, modifier, values };
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
