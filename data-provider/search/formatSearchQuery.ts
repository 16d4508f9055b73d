import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { defaultIsDateParameter, type SearchParseOptions } from './parseSearchRequest';
import { formatQueryPairs } from './queryEncoding';
import { checkDateSearchValue } from './searchDateValues';
import { formatIncludeTarget, validateIncludeTarget } from './searchIncludes';
import { MODIFIER_OPERATORS, Operator, PREFIX_OPERATORS } from './searchOperator';
import type { Filter, IncludeTarget, SearchRequest } from './searchRequest';

const prefixLike = /^(eq|ne|gt|lt|ge|le|sa|eb|ap)-?\d/;

function invalid(text: string, expression?: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(text, expression));
}

/** One filter → its `[key, value]` query pair. */
export function formatFilter(filter: Filter): [string, string] {
  const { code, operator, value } = filter;
  if (operator === Operator.EQUALS) {
    // Written with an explicit `eq` when the value would otherwise read as a prefix.
    return [code, prefixLike.test(value) ? `eq${value}` : value];
  }
  if (PREFIX_OPERATORS.has(operator)) return [code, `${operator}${value}`];
  if (MODIFIER_OPERATORS.has(operator)) return [`${code}:${operator}`, value];
  if (operator === Operator.TYPE) {
    if (!filter.targetType) throw invalid(`Filter on "${code}" with the type modifier needs a targetType`, code);
    return [`${code}:${filter.targetType}`, value];
  }
  throw invalid(`Operator "${operator}" cannot be used in a filter on "${code}"`, code);
}

function includePair(parameter: '_include' | '_revinclude', target: IncludeTarget): [string, string] {
  validateIncludeTarget(target, parameter);
  const key = target.modifier === Operator.ITERATE ? `${parameter}:iterate` : parameter;
  return [key, formatIncludeTarget(target)];
}

/** A search request's query pairs, in a fixed order: filters, then result parameters. */
export function searchRequestToPairs(request: SearchRequest, options: SearchParseOptions = {}): [string, string][] {
  const isDate = options.isDateParameter ?? defaultIsDateParameter;
  const pairs: [string, string][] = [];
  for (const filter of request.filters ?? []) {
    if (filter.operator !== Operator.MISSING && isDate(request.resourceType, filter.code)) {
      checkDateSearchValue(filter.code, filter.value);
    }
    pairs.push(formatFilter(filter));
  }
  if (request.sortRules?.length) {
    pairs.push(['_sort', request.sortRules.map((rule) => (rule.descending ? '-' : '') + rule.code).join(',')]);
  }
  if (request.count !== undefined) pairs.push(['_count', String(request.count)]);
  if (request.offset !== undefined) pairs.push(['_offset', String(request.offset)]);
  if (request.cursor !== undefined) pairs.push(['_cursor', request.cursor]);
  if (request.total !== undefined) pairs.push(['_total', request.total]);
  if (request.summary !== undefined) pairs.push(['_summary', request.summary]);
  if (request.fields?.length) pairs.push(['_elements', request.fields.join(',')]);
  for (const target of request.include ?? []) pairs.push(includePair('_include', target));
  for (const target of request.revInclude ?? []) pairs.push(includePair('_revinclude', target));
  return pairs;
}

/** `?name=eve&_count=10`, or '' when the request has no parameters. */
export function formatSearchQuery(request: SearchRequest, options: SearchParseOptions = {}): string {
  const query = formatQueryPairs(searchRequestToPairs(request, options));
  return query ? `?${query}` : '';
}

/** `Patient?name=eve&_count=10`: the request relative to the FHIR base. */
export function formatSearchRequest(request: SearchRequest, options: SearchParseOptions = {}): string {
  return request.resourceType + formatSearchQuery(request, options);
}
