import { OPERATOR_LABELS } from '../../schema-engine';
import type { Filter } from '../../data-provider/search';
import type { ReferenceNames } from './searchColumns';

/** A filter value that is one local reference ('Practitioner/a0f1…'), whose name can be looked up. */
const LOCAL_REFERENCE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/;

/** The filters' values that are references, for a name lookup (each once). */
export function filterReferences(filters: readonly Filter[] | undefined): string[] {
  return [...new Set((filters ?? []).map((filter) => filter.value).filter((value) => LOCAL_REFERENCE.test(value)))];
}

/**
 * An active filter in words, e.g. 'birthdate greater than 1900-01-01' (operator codes are for the URL);
 * a reference reads as its name once known ('recipient equals Alice Carter', not 'Practitioner/a0f1…').
 */
export function activeFilterText(filter: Filter, names?: ReferenceNames): string {
  const operator = OPERATOR_LABELS[filter.operator] ?? filter.operator;
  return `${filter.code} ${operator} ${names?.get(filter.value) ?? filter.value}`;
}
