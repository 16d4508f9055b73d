import { describe, expect, it } from 'vitest';
import { formatAddress } from './formatAddress';

const address = {
  use: 'work' as const,
  line: ['1 Main St', 'Suite 4'],
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
};

describe('formatAddress', () => {
  it('joins lines, city, state and postal code in that order', () => {
    expect(formatAddress(address)).toBe('1 Main St, Suite 4, Springfield, IL, 62701');
  });
  it('appends the use in brackets only when asked', () => {
    expect(formatAddress(address, { use: true })).toBe('1 Main St, Suite 4, Springfield, IL, 62701 [work]');
    expect(formatAddress({ city: 'Oslo' }, { use: true })).toBe('Oslo');
  });
  it('takes another separator for multi-line labels', () => {
    expect(formatAddress({ line: ['1 Main St'], city: 'Springfield' }, { separator: '\n' })).toBe(
      '1 Main St\nSpringfield',
    );
  });
  it('leaves out blank parts', () => {
    expect(formatAddress({ line: ['', '  '], city: 'Oslo', state: ' ', postalCode: '0150' })).toBe('Oslo, 0150');
  });
  it('falls back to the text only when there are no structured parts', () => {
    expect(formatAddress({ text: 'Somewhere' })).toBe('Somewhere');
    expect(formatAddress({ text: 'Somewhere', city: 'Oslo' })).toBe('Oslo');
  });
  it('gives an empty string for nothing', () => {
    expect(formatAddress(undefined)).toBe('');
    expect(formatAddress({ use: 'home' }, { use: true })).toBe('');
  });
});
