import { describe, expect, it } from 'vitest';
import { Operator } from '../../data-provider/search';
import { activeFilterText } from './activeFilterText';

describe('activeFilterText', () => {
  it('names the operator in words', () => {
    expect(
      activeFilterText({ code: 'birthdate', operator: Operator.GREATER_THAN_OR_EQUALS, value: '2026-01-01' }),
    ).toBe('birthdate greater than or equals 2026-01-01');
    expect(activeFilterText({ code: 'name', operator: Operator.CONTAINS, value: 'an' })).toBe('name contains an');
    expect(activeFilterText({ code: 'gender', operator: Operator.EQUALS, value: 'female' })).toBe(
      'gender equals female',
    );
  });
});
