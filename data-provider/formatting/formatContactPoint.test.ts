import { describe, expect, it } from 'vitest';
import { formatContactPoint } from './formatContactPoint';

describe('formatContactPoint', () => {
  it('puts the use in parentheses after the value', () => {
    expect(formatContactPoint({ system: 'phone', value: '555-0100', use: 'work' })).toBe('555-0100 (work)');
  });
  it('shows the value alone without a use', () => {
    expect(formatContactPoint({ system: 'email', value: 'ada@example.com' })).toBe('ada@example.com');
  });
  it('gives an empty string without a value, even with a use', () => {
    expect(formatContactPoint({ use: 'home' })).toBe('');
    expect(formatContactPoint({ value: '  ', use: 'home' })).toBe('');
    expect(formatContactPoint(undefined)).toBe('');
  });
});
