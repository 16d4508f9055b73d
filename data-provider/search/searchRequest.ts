import type { Operator } from './searchOperator';

/** Page size when a search names none (data-and-client-layer-spec.md §9). */
export const DEFAULT_SEARCH_COUNT = 20;

export interface Filter {
  /** The search parameter code, or the whole key for chains (`subject.name`) and `_has:…`. */
  code: string;
  operator: Operator;
  /** As written in the query without the prefix; comma-separated values mean "any of". */
  value: string;
  /** For `Operator.TYPE`: the resource type the reference must point to. */
  targetType?: string;
}

export interface SortRule {
  code: string;
  descending: boolean;
}

/** `_include=ResourceType:search-param[:target]`, optionally `:iterate`. */
export interface IncludeTarget {
  resourceType: string;
  searchParam: string;
  targetType?: string;
  modifier?: Operator.ITERATE;
}

export type TotalMode = 'none' | 'estimate' | 'accurate';

export interface SearchRequest {
  resourceType: string;
  filters?: Filter[];
  sortRules?: SortRule[];
  offset?: number;
  count?: number;
  total?: TotalMode;
  cursor?: string;
  include?: IncludeTarget[];
  revInclude?: IncludeTarget[];
  /** Top-level elements to return (`_elements`). */
  fields?: string[];
  summary?: 'true' | 'text' | 'data' | 'count' | 'false';
}
