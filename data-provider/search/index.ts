// Public surface of the search model (data-and-client-layer-spec.md §3, §5).
export { Operator, MODIFIER_OPERATORS, PREFIX_OPERATORS } from './searchOperator';
export {
  DEFAULT_SEARCH_COUNT,
  type Filter,
  type IncludeTarget,
  type SearchRequest,
  type SortRule,
  type TotalMode,
} from './searchRequest';
export {
  defaultIsDateParameter,
  parseFilter,
  parseSearchParams,
  parseSearchRequest,
  type SearchParamsInput,
  type SearchParseOptions,
} from './parseSearchRequest';
export { formatFilter, formatSearchQuery, formatSearchRequest, searchRequestToPairs } from './formatSearchQuery';
export { formatIncludeTarget, parseIncludeTarget, validateIncludeTarget } from './searchIncludes';
export { checkDateSearchValue, COMMON_DATE_SEARCH_PARAMETERS, isSearchDateValue } from './searchDateValues';
export { encodeQueryComponent, formatQueryPairs } from './queryEncoding';
export { patientLookupHint, patientLookupQuery } from './patientLookupQuery';
export { ESTIMATE_COUNTED_UP_TO, isEstimatedTotal } from './estimatedTotal';
