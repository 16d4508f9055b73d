import { OPERATOR_LABELS } from '../../schema-engine';
import type { Filter } from '../../data-provider/search';

/** An active filter in words, e.g. 'birthdate greater than 1900-01-01' (operator codes are for the URL). */
export function activeFilterText(filter: Filter): string {
  const operator = OPERATOR_LABELS[filter.operator] ?? filter.operator;
  return `${filter.code} ${operator} ${filter.value}`;
}
