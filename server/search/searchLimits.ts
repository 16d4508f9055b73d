import { FhirError, outcomeOf } from '../fhir/fhirError';

/**
 * What one search may ask. A search is a single SQL statement, and on the embedded database every
 * other caller waits for it; the body limit alone lets `POST {type}/_search` (or a batch entry, or a
 * subscription's criteria) carry megabytes of query. Each value of a parameter is an OR-ed
 * condition with its own SQL parameters (70,000 of them overflow PostgreSQL's 65,535 and answered
 * 500), each filter an EXISTS, each sort key a subquery per matching row, each include rule a
 * statement per round, and `_elements` was matched per resource.
 */
export interface SearchLimits {
  /** Filters of one search: parameters, chains, `_has`, `_filter` comparisons. */
  maxFilters: number;
  /** Comma-separated values of one parameter. */
  maxValuesPerParameter: number;
  /** Values of all the parameters of one search together. */
  maxValues: number;
  /** Characters of one value (a 10 kB identifier must still be found: longValues.test.ts). */
  maxValueLength: number;
  /** `_sort` keys. */
  maxSortKeys: number;
  /** `_include` and `_revinclude` rules together. */
  maxIncludeRules: number;
  /** Names in `_elements`. */
  maxElements: number;
}

/**
 * The web app's searches use a few filters and one sort key; the chart asks for three includes;
 * readableBinaries.ts sends 500 ids in one `_id`. Each limit leaves ten times what a client needs.
 */
export const searchLimits: SearchLimits = {
  maxFilters: 64,
  maxValuesPerParameter: 1_000,
  maxValues: 5_000,
  maxValueLength: 16_384,
  maxSortKeys: 8,
  maxIncludeRules: 32,
  maxElements: 256,
};

/** 400 naming the parameter and the limit (the request is refused before any SQL is built). */
export function searchLimitError(parameter: string, text: string): FhirError {
  return new FhirError(
    400,
    outcomeOf([{ severity: 'error', code: 'too-costly', details: { text }, expression: [parameter] }]),
  );
}
