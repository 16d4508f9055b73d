import { Operator } from '../../data-provider/search';

/**
 * The filter operators offered per search-parameter type (app-spec §5). Kept here until the
 * schema engine exports its own list; the screens only use `operatorsFor` and `OPERATOR_LABELS`.
 */
export const OPERATOR_LABELS: Record<string, string> = {
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
  [Operator.MISSING]: 'missing',
};

const NUMERIC: Operator[] = [
  Operator.EQUALS,
  Operator.NOT_EQUALS,
  Operator.GREATER_THAN,
  Operator.LESS_THAN,
  Operator.GREATER_THAN_OR_EQUALS,
  Operator.LESS_THAN_OR_EQUALS,
];

export function operatorsFor(parameterType: string | undefined): Operator[] {
  switch (parameterType) {
    case 'string':
      return [Operator.EQUALS, Operator.NOT, Operator.CONTAINS, Operator.EXACT];
    case 'token':
    case 'reference':
    case 'uri':
      return [Operator.EQUALS, Operator.NOT];
    case 'number':
    case 'quantity':
      return NUMERIC;
    case 'date':
      return [...NUMERIC, Operator.STARTS_AFTER, Operator.ENDS_BEFORE, Operator.APPROXIMATELY];
    default:
      return [Operator.EQUALS];
  }
}

export interface DateHelper {
  label: string;
  filters: { operator: Operator; value: string }[];
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + days));
}

function monthStart(date: Date, shift: number): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + shift, 1));
}

function range(from: Date, toExclusive: Date): DateHelper['filters'] {
  return [
    { operator: Operator.GREATER_THAN_OR_EQUALS, value: isoDate(from) },
    { operator: Operator.LESS_THAN, value: isoDate(toExclusive) },
  ];
}

/** Date filter shortcuts: yesterday, today, tomorrow, last/this/next month, year to date. */
export function dateHelpers(now: Date): DateHelper[] {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return [
    { label: 'Yesterday', filters: range(addDays(today, -1), today) },
    { label: 'Today', filters: range(today, addDays(today, 1)) },
    { label: 'Tomorrow', filters: range(addDays(today, 1), addDays(today, 2)) },
    { label: 'Last month', filters: range(monthStart(today, -1), monthStart(today, 0)) },
    { label: 'This month', filters: range(monthStart(today, 0), monthStart(today, 1)) },
    { label: 'Next month', filters: range(monthStart(today, 1), monthStart(today, 2)) },
    {
      label: 'Year to date',
      filters: range(new Date(Date.UTC(today.getUTCFullYear(), 0, 1)), addDays(today, 1)),
    },
  ];
}
