import { describe, expect, it } from 'vitest';
import { formatQuantity, formatRange } from './formatQuantity';

describe('formatQuantity', () => {
  it('writes comparator, value and unit', () => {
    expect(formatQuantity({ value: 5, unit: 'mg' })).toBe('5 mg');
    expect(formatQuantity({ comparator: '<', value: 5, unit: 'mg' })).toBe('<5 mg');
  });
  it('uses the code when there is no unit', () => {
    expect(formatQuantity({ value: 37.5, code: 'Cel', system: 'http://unitsofmeasure.org' })).toBe('37.5 Cel');
  });
  it('fixes the decimals when a precision is given', () => {
    expect(formatQuantity({ value: 1.005, unit: 'g' }, 1)).toBe('1.0 g');
    expect(formatQuantity({ value: 2, unit: 'g' }, 2)).toBe('2.00 g');
  });
  it('shows a value without a unit, and zero as a value', () => {
    expect(formatQuantity({ value: 3 })).toBe('3');
    expect(formatQuantity({ value: 0, unit: 'mg' })).toBe('0 mg');
  });
  it('shows the unit alone without a value, and nothing for nothing', () => {
    expect(formatQuantity({ unit: 'mg' })).toBe('mg');
    expect(formatQuantity(undefined)).toBe('');
    expect(formatQuantity({ value: Number.NaN })).toBe('');
  });
});

describe('formatRange', () => {
  it('writes the unit once when both ends share it', () => {
    expect(formatRange({ low: { value: 5, unit: 'mg' }, high: { value: 10, unit: 'mg' } })).toBe('5 - 10 mg');
  });
  it('writes both units when they differ', () => {
    expect(formatRange({ low: { value: 500, unit: 'mg' }, high: { value: 1, unit: 'g' } })).toBe('500 mg - 1 g');
  });
  it('writes open ranges with >= and <=', () => {
    expect(formatRange({ low: { value: 5, unit: 'mg' } })).toBe('>= 5 mg');
    expect(formatRange({ high: { value: 10, unit: 'mg' } })).toBe('<= 10 mg');
    expect(formatRange({ low: { unit: 'mg' }, high: { value: 10, unit: 'mg' } })).toBe('<= 10 mg');
  });
  it('applies the precision to both ends', () => {
    expect(formatRange({ low: { value: 1, unit: 'L' }, high: { value: 2.25, unit: 'L' } }, 1)).toBe('1.0 - 2.3 L');
  });
  it('gives an empty string for an empty range', () => {
    expect(formatRange({})).toBe('');
    expect(formatRange(undefined)).toBe('');
  });
});
