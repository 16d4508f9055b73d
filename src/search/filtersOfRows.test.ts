import { describe, expect, it } from 'vitest';
import { Operator } from '../../data-provider/search';
import { filtersOfRows, valueInputType, valuePlaceholder } from './FiltersDialog';

describe('filtersOfRows', () => {
  const now = new Date(2026, 10, 23, 15, 0);
  it('expands a date shortcut into its two filters and keeps rows with a value', () => {
    expect(
      filtersOfRows(
        [
          { code: 'value-quantity', operator: Operator.GREATER_THAN, value: '5' },
          { code: 'date', operator: Operator.EQUALS, value: '', helper: 'yearToDate' },
          { code: 'name', operator: Operator.CONTAINS, value: '' },
        ],
        now,
      ),
    ).toEqual([
      { code: 'value-quantity', operator: Operator.GREATER_THAN, value: '5' },
      { code: 'date', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' },
      { code: 'date', operator: Operator.LESS_THAN, value: '2026-11-24' },
    ]);
  });

  it('gives each type its input', () => {
    expect(valueInputType('date')).toBe('date');
    expect(valueInputType('number')).toBe('number');
    expect(valueInputType('quantity')).toBe('text');
    expect(valuePlaceholder('reference')).toBe('Type/id');
  });
});
