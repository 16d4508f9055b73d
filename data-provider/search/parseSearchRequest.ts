import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { checkDateSearchValue, COMMON_DATE_SEARCH_PARAMETERS } from './searchDateValues';
import { parseIncludeTarget } from './searchIncludes';
import { MODIFIER_OPERATORS, Operator, PREFIX_OPERATORS } from './searchOperator';
import type { Filter, SearchRequest, SortRule, TotalMode } from './searchRequest';

export interface SearchParseOptions {
  /** Whether `code` is a date parameter of `resourceType`, so that its values are format-checked. */
  isDateParameter?: (resourceType: string, code: string) => boolean;
}

export type SearchParamsInput = URLSearchParams | Record<string, string | number | boolean | string[] | undefined>;

const resourceTypePattern = /^[A-Z][A-Za-z]+$/;
/**
 * A prefix counts only before a number or date, so that a name like "eben" is not read as `eb`
 * + "en"; an `eq` before a prefix-like value is the escape that formatFilter writes.
 */
const prefixPattern = /^(?:(eq|ne|gt|lt|ge|le|sa|eb|ap)(?=-?\d)|(eq)(?=(?:eq|ne|gt|lt|ge|le|sa|eb|ap)-?\d))/;

export function defaultIsDateParameter(_resourceType: string, code: string): boolean {
  return COMMON_DATE_SEARCH_PARAMETERS.has(code);
}

function invalid(text: string, expression?: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(text, expression));
}

/**
 * `Patient?name=eve&_count=10`, `/fhir/R4/Patient?…` or a full URL → a search request. The
 * resource type is the last path segment.
 */
export function parseSearchRequest(url: string | URL, options: SearchParseOptions = {}): SearchRequest {
  const text = url.toString().split('#')[0];
  const questionMark = text.indexOf('?');
  const path = questionMark < 0 ? text : text.slice(0, questionMark);
  const query = questionMark < 0 ? '' : text.slice(questionMark + 1);
  const segments = path.split('/').filter((segment) => segment.length > 0);
  const resourceType = segments[segments.length - 1] ?? '';
  return parseSearchParams(resourceType, new URLSearchParams(query), options);
}

function entriesOf(params: SearchParamsInput): [string, string][] {
  if (params instanceof URLSearchParams) return [...params.entries()];
  const entries: [string, string][] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) entries.push([key, String(one)]);
  }
  return entries;
}

/** The query parameters of a search on `resourceType` → a search request. */
export function parseSearchParams(
  resourceType: string,
  params: SearchParamsInput,
  options: SearchParseOptions = {},
): SearchRequest {
  if (!resourceTypePattern.test(resourceType)) {
    throw invalid(`Invalid resource type "${resourceType}" in search`);
  }
  const isDate = options.isDateParameter ?? defaultIsDateParameter;
  const request: SearchRequest = { resourceType };
  for (const [key, value] of entriesOf(params)) {
    const [name, modifier] = splitOnce(key, ':');
    switch (name) {
      case '_sort':
        request.sortRules = [...(request.sortRules ?? []), ...parseSortRules(value)];
        break;
      case '_count':
        request.count = parseWholeNumber(key, value);
        break;
      case '_offset':
        request.offset = parseWholeNumber(key, value);
        break;
      case '_total':
        request.total = parseTotal(value);
        break;
      case '_cursor':
        request.cursor = value;
        break;
      case '_summary':
        request.summary = parseSummary(value);
        break;
      case '_elements':
      case '_fields':
      case 'fields':
        request.fields = [...(request.fields ?? []), ...splitList(value)];
        break;
      case '_include':
      case '_revinclude': {
        if (modifier !== undefined && modifier !== Operator.ITERATE) {
          throw invalid(`Unsupported modifier ":${modifier}" on ${name} (only :iterate)`, key);
        }
        const field = name === '_include' ? 'include' : 'revInclude';
        const targets = splitList(value).map((one) => parseIncludeTarget(one, modifier !== undefined, name));
        request[field] = [...(request[field] ?? []), ...targets];
        break;
      }
      default: {
        const filter = parseFilter(key, value);
        if (filter.operator !== Operator.MISSING && isDate(resourceType, filter.code)) {
          checkDateSearchValue(filter.code, filter.value);
        }
        request.filters = [...(request.filters ?? []), filter];
      }
    }
  }
  return request;
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const index = value.indexOf(separator);
  return index < 0 ? [value, undefined] : [value.slice(0, index), value.slice(index + 1)];
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

function parseSortRules(value: string): SortRule[] {
  return splitList(value).map((part) =>
    part.startsWith('-') ? { code: part.slice(1), descending: true } : { code: part, descending: false },
  );
}

function parseWholeNumber(key: string, value: string): number {
  if (!/^\d+$/.test(value)) throw invalid(`Invalid ${key} "${value}": expected a whole number`, key);
  return Number(value);
}

function parseTotal(value: string): TotalMode {
  if (value === 'none' || value === 'estimate' || value === 'accurate') return value;
  throw invalid(`Invalid _total "${value}": expected none, estimate or accurate`, '_total');
}

function parseSummary(value: string): NonNullable<SearchRequest['summary']> {
  if (value === 'true' || value === 'text' || value === 'data' || value === 'count' || value === 'false') return value;
  throw invalid(`Invalid _summary "${value}": expected true, text, data, count or false`, '_summary');
}

/** One `key=value` pair that is not a result parameter → a filter. */
export function parseFilter(key: string, value: string): Filter {
  // Chains and reverse chains keep their whole key: their modifiers belong to another type.
  if (key.startsWith('_has:') || key.includes('.')) return { code: key, operator: Operator.EQUALS, value };
  const [code, modifier] = splitOnce(key, ':');
  if (modifier === undefined) {
    const match = prefixPattern.exec(value);
    const prefix = (match?.[1] ?? match?.[2]) as Operator | undefined;
    return prefix && PREFIX_OPERATORS.has(prefix)
      ? { code, operator: prefix, value: value.slice(prefix.length) }
      : { code, operator: Operator.EQUALS, value };
  }
  if (MODIFIER_OPERATORS.has(modifier as Operator)) return { code, operator: modifier as Operator, value };
  if (resourceTypePattern.test(modifier)) return { code, operator: Operator.TYPE, value, targetType: modifier };
  throw invalid(`Unknown search modifier ":${modifier}" on "${code}"`, key);
}
