import { describe, expect, it } from 'vitest';
import { formatPeriod } from './formatPeriod';

const utc: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' };

describe('formatPeriod', () => {
  it('joins start and end', () => {
    expect(formatPeriod({ start: '2020-03-07T14:30:00Z', end: '2020-03-08T09:00:00Z' }, 'en-US', utc)).toBe(
      'Mar 7, 2020, 2:30 PM - Mar 8, 2020, 9:00 AM',
    );
  });
  it('keeps an open end visible', () => {
    expect(formatPeriod({ start: '2020-03-07' }, 'en-US')).toBe('Mar 7, 2020 -');
    expect(formatPeriod({ end: '2020-03-08' }, 'en-US')).toBe('- Mar 8, 2020');
  });
  it('gives an empty string for an empty period', () => {
    expect(formatPeriod({}, 'en-US')).toBe('');
    expect(formatPeriod(undefined)).toBe('');
  });
});
