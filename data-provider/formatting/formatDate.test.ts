import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, readableTimestamp } from './formatDate';

const originalTimeZone = process.env.TZ;
afterEach(() => {
  // Assigning undefined would set the zone named 'undefined'.
  if (originalTimeZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalTimeZone;
});

describe('formatDate', () => {
  it('formats a full date as a medium date', () => {
    expect(formatDate('2020-03-07', 'en-US')).toBe('Mar 7, 2020');
  });
  it('never moves a date-only value by the time zone', () => {
    // Offsets on 2020-01-01 in minutes, as getTimezoneOffset gives them: proof that each zone took effect.
    const zones = {
      'Pacific/Pago_Pago': 660,
      'America/Los_Angeles': 480,
      UTC: 0,
      'Asia/Tokyo': -540,
      'Pacific/Kiritimati': -840,
    };
    for (const [zone, offset] of Object.entries(zones)) {
      process.env.TZ = zone;
      expect(new Date(2020, 0, 1).getTimezoneOffset()).toBe(offset);
      expect(formatDate('2020-03-07', 'en-US'), zone).toBe('Mar 7, 2020');
      expect(formatDate('2020-01-01', 'en-US'), zone).toBe('Jan 1, 2020');
    }
  });
  it('keeps the precision of a partial date', () => {
    process.env.TZ = 'Pacific/Pago_Pago';
    expect(formatDate('2020-03', 'en-US')).toBe('Mar 2020');
    expect(formatDate('2020', 'en-US')).toBe('2020');
    expect(formatDate('2020-03', 'en-US', { dateStyle: 'full' })).toBe('Mar 2020');
  });
  it('applies options to full dates', () => {
    expect(formatDate('2020-03-07', 'en-US', { year: 'numeric', month: '2-digit', day: '2-digit' })).toBe('03/07/2020');
  });
  it('shows the date of a dateTime in the viewer zone', () => {
    process.env.TZ = 'America/New_York';
    expect(formatDate('2020-03-07T02:00:00Z', 'en-US')).toBe('Mar 6, 2020');
    process.env.TZ = 'UTC';
    expect(formatDate('2020-03-07T02:00:00Z', 'en-US')).toBe('Mar 7, 2020');
  });
  it('returns what it cannot read unchanged, and nothing for nothing', () => {
    expect(formatDate('yesterday', 'en-US')).toBe('yesterday');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
  });
});

describe('formatDateTime', () => {
  it('formats date and time in the given zone', () => {
    expect(
      formatDateTime('2020-03-07T14:30:00Z', 'en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    ).toBe('Mar 7, 2020, 2:30 PM');
  });
  it('formats in the viewer zone by default', () => {
    process.env.TZ = 'Asia/Tokyo';
    expect(formatDateTime('2020-03-07T14:30:00Z', 'en-US')).toBe('Mar 7, 2020, 11:30 PM');
  });
  it('formats a date-only value as a date, without a zone shift', () => {
    process.env.TZ = 'Pacific/Pago_Pago';
    expect(formatDateTime('2020-03-07', 'en-US')).toBe('Mar 7, 2020');
  });
  it('returns what it cannot read unchanged', () => {
    expect(formatDateTime('2020-13-45T99:00:00Z', 'en-US')).toBe('2020-13-45T99:00:00Z');
    expect(formatDateTime(undefined)).toBe('');
  });
});

describe('the house style, without a locale or options', () => {
  it('shows a day as day, month word and year, whatever the browser locale, keeping partial precision', () => {
    process.env.TZ = 'Pacific/Pago_Pago';
    expect(formatDate('2020-03-07')).toBe('7 Mar 2020');
    expect(formatDate('2000-11-15')).toBe('15 Nov 2000');
    expect(formatDate('2020-03')).toBe('Mar 2020');
    expect(formatDate('2020')).toBe('2020');
    expect(formatDate('yesterday')).toBe('yesterday');
  });
  it('shows an instant on the viewer day with its time', () => {
    process.env.TZ = 'America/New_York';
    expect(formatDate('2020-03-07T02:00:00Z')).toBe('6 Mar 2020');
    process.env.TZ = 'UTC';
    expect(formatDateTime('2020-03-07T14:30:00Z')).toMatch(/^7 Mar 2020, 2:30\sPM$|^7 Mar 2020, 14:30$/);
    expect(formatDateTime('2020-03-07')).toBe('7 Mar 2020');
    expect(formatDateTime('2020-13-45T99:00:00Z')).toBe('2020-13-45T99:00:00Z');
  });
});

describe('readableTimestamp', () => {
  it("shows an instant read off an untyped object (a Meta's lastUpdated) as the lists do", () => {
    process.env.TZ = 'UTC';
    expect(readableTimestamp('2026-11-29T00:51:55.565Z', 'en-US')).toBe('Nov 29, 2026, 12:51 AM');
    expect(readableTimestamp('2026-11-29T00:51:55.565Z', 'en-US')).toBe(
      formatDateTime('2026-11-29T00:51:55.565Z', 'en-US'),
    );
    expect(readableTimestamp('2020-03-07T14:30:00+02:00', 'en-US')).toBe('Mar 7, 2020, 12:30 PM');
  });
  it('leaves alone what only looks like a date: codes, ids, bare dates, a time without its zone', () => {
    for (const value of ['2020', '2020-03-07', '2020-03-07T14:30:00', 'abc', '12', 2020, undefined, null]) {
      expect(readableTimestamp(value, 'en-US')).toBeUndefined();
    }
  });
});
