import { Operator } from '../../data-provider/search';

/** The words the filter menus show for each operator. */
export const OPERATOR_LABELS: Readonly<Record<string, string>> = {
  [Operator.EQUALS]: 'equals',
  [Operator.NOT]: 'not',
  [Operator.NOT_EQUALS]: 'not equals',
  [Operator.CONTAINS]: 'contains',
  [Operator.EXACT]: 'exact',
  [Operator.GREATER_THAN]: 'greater than',
  [Operator.LESS_THAN]: 'less than',
  [Operator.GREATER_THAN_OR_EQUALS]: 'greater than or equals',
  [Operator.LESS_THAN_OR_EQUALS]: 'less than or equals',
  [Operator.STARTS_AFTER]: 'starts after',
  [Operator.ENDS_BEFORE]: 'ends before',
  [Operator.APPROXIMATELY]: 'approximately',
};

const comparisons: readonly Operator[] = [
  Operator.EQUALS,
  Operator.NOT_EQUALS,
  Operator.GREATER_THAN,
  Operator.LESS_THAN,
  Operator.GREATER_THAN_OR_EQUALS,
  Operator.LESS_THAN_OR_EQUALS,
];

/** Filter operators per search-parameter type (app-spec §5). */
const operatorsByType: Readonly<Record<string, readonly Operator[]>> = {
  string: [Operator.EQUALS, Operator.NOT, Operator.CONTAINS, Operator.EXACT],
  // FHIR `uri` parameters compare like tokens (exact match, `:not`).
  token: [Operator.EQUALS, Operator.NOT],
  reference: [Operator.EQUALS, Operator.NOT],
  uri: [Operator.EQUALS, Operator.NOT],
  number: comparisons,
  quantity: comparisons,
  date: [...comparisons, Operator.STARTS_AFTER, Operator.ENDS_BEFORE, Operator.APPROXIMATELY],
  // FHIR has no separate dateTime search type, but element types are dateTime: same operators.
  datetime: [...comparisons, Operator.STARTS_AFTER, Operator.ENDS_BEFORE, Operator.APPROXIMATELY],
  dateTime: [...comparisons, Operator.STARTS_AFTER, Operator.ENDS_BEFORE, Operator.APPROXIMATELY],
};

/** The column-menu message for a parameter type the console cannot filter on (app-spec §8). */
export function unknownSearchParameterTypeMessage(type: string | undefined): string {
  return `Unknown search parameter type: ${type ?? '(none)'}`;
}

export function isFilterableType(type: string | undefined): boolean {
  return type !== undefined && type in operatorsByType;
}

/**
 * The operators a filter on a parameter of this type offers. Composite and special parameters
 * (and unknown types) have none: the column menu shows `unknownSearchParameterTypeMessage`.
 */
export function filterOperatorsFor(type: string | undefined): readonly Operator[] {
  return (type && operatorsByType[type]) || [];
}
