import { describe, expect, it } from 'vitest';
import { Operator } from '../../data-provider/search';
import {
  currentPage,
  defaultResourceType,
  formatConsoleSearch,
  formatPageRange,
  lastSearch,
  parseConsoleSearch,
  rememberSearch,
  serverQuery,
  withFields,
  withFilters,
  withPage,
  withSort,
} from './searchState';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (index) => [...data.keys()][index] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, value),
  };
}

describe('console search state', () => {
  it('fills the defaults: fields _id and _lastUpdated, newest first, offset 0, 20 per page', () => {
    const { request, name } = parseConsoleSearch('Task', new URLSearchParams());
    expect(request).toMatchObject({
      resourceType: 'Task',
      fields: ['_id', '_lastUpdated'],
      sortRules: [{ code: '_lastUpdated', descending: true }],
      offset: 0,
      count: 20,
      total: 'accurate',
    });
    expect(name).toBeUndefined();
  });

  it('round-trips filters, sort, page, columns and name through the page URL', () => {
    const query =
      'name:contains=eve&birthdate=gt2000-01-01&_sort=family&_count=10&_offset=30&_fields=name,gender&_name=Mine';
    const search = parseConsoleSearch('Patient', new URLSearchParams(query));
    expect(search.name).toBe('Mine');
    expect(search.request.filters).toEqual([
      { code: 'name', operator: Operator.CONTAINS, value: 'eve' },
      { code: 'birthdate', operator: Operator.GREATER_THAN, value: '2000-01-01' },
    ]);
    expect(search.request.fields).toEqual(['name', 'gender']);
    const again = parseConsoleSearch('Patient', new URLSearchParams(formatConsoleSearch(search)));
    expect(again).toEqual(search);
  });

  it('sends the server neither the display columns nor the name', () => {
    const search = parseConsoleSearch('Patient', new URLSearchParams('_fields=name&_name=x&gender=female'));
    const query = serverQuery(search.request);
    expect(query).toContain('gender=female');
    expect(query).not.toContain('_fields');
    expect(query).not.toContain('_elements');
    expect(query).not.toContain('_name');
  });

  it('rejects a malformed query with a specific message', () => {
    expect(() => parseConsoleSearch('Patient', new URLSearchParams('_count=many'))).toThrow(/_count/);
  });

  it('pages by page size × (page − 1)', () => {
    const search = parseConsoleSearch('Patient', new URLSearchParams('_count=25'));
    expect(withPage(search, 3).request.offset).toBe(50);
    expect(withPage(search, 1).request.offset).toBe(0);
    expect(currentPage(withPage(search, 4).request)).toBe(4);
  });

  it('a filter change resets the offset and the name; a sort change resets the offset and the name', () => {
    const search = parseConsoleSearch('Patient', new URLSearchParams('_offset=40&_name=Saved'));
    const filtered = withFilters(search, [{ code: 'gender', operator: Operator.EQUALS, value: 'male' }]);
    expect(filtered.request.offset).toBe(0);
    expect(filtered.name).toBeUndefined();
    const sorted = withSort(search, { code: 'birthdate', descending: false });
    expect(sorted.request.offset).toBe(0);
    expect(sorted.name).toBeUndefined();
    expect(withFields(search, ['name']).name).toBe('Saved');
    // Columns change what is shown, not which rows: the page stays.
    expect(withFields(search, ['name']).request.offset).toBe(40);
  });

  it('a new sort on page 2 opens page 1 of the new order, keeping filters, columns and page size', () => {
    const search = parseConsoleSearch(
      'Observation',
      new URLSearchParams('status=final&_count=20&_offset=20&_fields=code,date&_sort=-_lastUpdated'),
    );
    expect(currentPage(search.request)).toBe(2);
    const sorted = withSort(search, { code: 'date', descending: false });
    expect(sorted.request.offset).toBe(0);
    expect(currentPage(sorted.request)).toBe(1);
    expect(sorted.request.sortRules).toEqual([{ code: 'date', descending: false }]);
    expect(sorted.request.count).toBe(20);
    expect(sorted.request.filters).toEqual(search.request.filters);
    expect(sorted.request.fields).toEqual(['code', 'date']);
    const query = formatConsoleSearch(sorted);
    expect(query).toContain('_sort=date');
    expect(query).not.toMatch(/_offset=[1-9]/);
    // Removing every filter is a filter change too.
    expect(withFilters(search, []).request.offset).toBe(0);
  });

  it('formats first-last of total, with ~ for estimates and nothing for no results', () => {
    expect(formatPageRange(0, 20, 57, false)).toBe('1-20 of 57');
    expect(formatPageRange(40, 17, 57, false)).toBe('41-57 of 57');
    expect(formatPageRange(0, 20, 1200, true)).toBe('1-20 of ~1,200');
    expect(formatPageRange(0, 0, 0, false)).toBe('');
    expect(formatPageRange(1000, 1000, 2500, false)).toBe('1,001-2,000 of 2,500');
  });

  it('remembers the last search per type', () => {
    const storage = memoryStorage();
    rememberSearch(storage, 'Patient', 'gender=female');
    expect(lastSearch(storage, 'Patient')).toBe('gender=female');
    expect(lastSearch(storage, 'Task')).toBeUndefined();
  });

  it('picks the default type from local storage, then the user configuration, then Task', () => {
    expect(defaultResourceType(memoryStorage({ defaultResourceType: 'Observation' }), 'Patient')).toBe('Observation');
    expect(defaultResourceType(memoryStorage(), 'Patient')).toBe('Patient');
    expect(defaultResourceType(memoryStorage(), undefined)).toBe('Task');
  });
});
