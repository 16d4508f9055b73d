import { describe, expect, it } from 'vitest';
import { Operator } from '../../data-provider/search';
import { activeFilterText, filterReferences } from './activeFilterText';

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

describe('a reference in a filter', () => {
  it('reads as its name once known, as the reference until then', () => {
    const filter = { code: 'recipient', operator: Operator.EQUALS, value: 'Practitioner/a0f13e86-1' };
    expect(activeFilterText(filter)).toBe('recipient equals Practitioner/a0f13e86-1');
    expect(activeFilterText(filter, new Map([['Practitioner/a0f13e86-1', 'Alice Carter']]))).toBe(
      'recipient equals Alice Carter',
    );
  });

  it('looks up only values that are one local reference, each once', () => {
    expect(
      filterReferences([
        { code: 'recipient', operator: Operator.EQUALS, value: 'Practitioner/a1' },
        { code: 'sender', operator: Operator.EQUALS, value: 'Practitioner/a1' },
        { code: 'subject', operator: Operator.EQUALS, value: 'Patient/p-2' },
        { code: 'name', operator: Operator.CONTAINS, value: 'an' },
        { code: 'code', operator: Operator.EQUALS, value: 'http://loinc.org|8867-4' },
        { code: 'date', operator: Operator.GREATER_THAN, value: '2026/01/01' },
      ]),
    ).toEqual(['Practitioner/a1', 'Patient/p-2']);
    expect(filterReferences(undefined)).toEqual([]);
  });
});
