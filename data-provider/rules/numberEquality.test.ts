import { describe, expect, it } from 'vitest';
import { LOOSE_NUMBER_TOLERANCE, preciseEquals, quantityEquals, STRICT_NUMBER_TOLERANCE } from './numberEquality';

describe('tolerances', () => {
  it('are those of the spec', () => {
    expect(STRICT_NUMBER_TOLERANCE).toBe(1e-8);
    expect(LOOSE_NUMBER_TOLERANCE).toBe(0.01);
  });
});

describe('preciseEquals', () => {
  it('ignores binary rounding noise', () => {
    expect(0.1 + 0.2 === 0.3).toBe(false);
    expect(preciseEquals(0.1 + 0.2, 0.3)).toBe(true);
  });
  it('is strict within 1e-8 by default', () => {
    expect(preciseEquals(1, 1 + 5e-9)).toBe(true);
    expect(preciseEquals(1, 1 + 2e-8)).toBe(false);
    expect(preciseEquals(1, 1.001)).toBe(false);
  });
  it('is loose within 0.01 when asked', () => {
    expect(preciseEquals(1, 1.005, 'loose')).toBe(true);
    expect(preciseEquals(1, 0.995, 'loose')).toBe(true);
    expect(preciseEquals(1, 1.02, 'loose')).toBe(false);
  });
});

describe('quantityEquals', () => {
  it('accepts values within 0.01 with the same unit', () => {
    expect(quantityEquals({ value: 5, unit: 'mg' }, { value: 5.005, unit: 'mg' })).toBe(true);
    expect(quantityEquals({ value: 5, unit: 'mg' }, { value: 5.02, unit: 'mg' })).toBe(false);
  });
  it('accepts the same code when units differ or are missing', () => {
    expect(quantityEquals({ value: 5, unit: 'milligram', code: 'mg' }, { value: 5, code: 'mg' })).toBe(true);
    expect(quantityEquals({ value: 5, unit: 'mg' }, { value: 5, code: 'mg' })).toBe(true);
  });
  it('rejects different units and codes', () => {
    expect(quantityEquals({ value: 5, unit: 'mg', code: 'mg' }, { value: 5, unit: 'g', code: 'g' })).toBe(false);
    expect(quantityEquals({ value: 5, unit: 'mg' }, { value: 5 })).toBe(false);
  });
  it('compares unitless quantities by value', () => {
    expect(quantityEquals({ value: 2 }, { value: 2.001 })).toBe(true);
  });
  it('rejects a different comparator and missing values', () => {
    expect(quantityEquals({ value: 5, unit: 'mg', comparator: '<' }, { value: 5, unit: 'mg' })).toBe(false);
    expect(quantityEquals({ unit: 'mg' }, { unit: 'mg' })).toBe(false);
    expect(quantityEquals(undefined, { value: 1 })).toBe(false);
  });
});
