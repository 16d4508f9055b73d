import { Operator, type Filter } from '../../data-provider/search';

export type DateHelperKey = 'yesterday' | 'today' | 'tomorrow' | 'lastMonth' | 'thisMonth' | 'nextMonth' | 'yearToDate';

export interface DateHelper {
  key: DateHelperKey;
  label: string;
}

/** The date shortcuts of app-spec §5, in menu order. */
export const DATE_HELPERS: readonly DateHelper[] = [
  { key: 'yesterday', label: 'Yesterday' },
  { key: 'today', label: 'Today' },
  { key: 'tomorrow', label: 'Tomorrow' },
  { key: 'lastMonth', label: 'Last month' },
  { key: 'thisMonth', label: 'This month' },
  { key: 'nextMonth', label: 'Next month' },
  { key: 'yearToDate', label: 'Year to date' },
];

function isoDate(date: Date): string {
  const y = String(date.getFullYear()).padStart(4, '0');
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

function day(now: Date, shift: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + shift);
}

function month(now: Date, shift: number): Date {
  return new Date(now.getFullYear(), now.getMonth() + shift, 1);
}

/**
 * The concrete filters of a date shortcut: `ge` the first day and `lt` the day after the last, in
 * the user's local calendar (a clinician's "today" is their own day). `now` is the clock, for tests.
 */
export function dateHelperFilters(code: string, helper: DateHelperKey, now: Date = new Date()): Filter[] {
  const between = (from: Date, toExclusive: Date): Filter[] => [
    { code, operator: Operator.GREATER_THAN_OR_EQUALS, value: isoDate(from) },
    { code, operator: Operator.LESS_THAN, value: isoDate(toExclusive) },
  ];
  switch (helper) {
    case 'yesterday':
      return between(day(now, -1), day(now, 0));
    case 'today':
      return between(day(now, 0), day(now, 1));
    case 'tomorrow':
      return between(day(now, 1), day(now, 2));
    case 'lastMonth':
      return between(month(now, -1), month(now, 0));
    case 'thisMonth':
      return between(month(now, 0), month(now, 1));
    case 'nextMonth':
      return between(month(now, 1), month(now, 2));
    case 'yearToDate':
      return between(new Date(now.getFullYear(), 0, 1), day(now, 1));
  }
}
