import { describe, expect, it } from 'vitest';
import { dateRange } from './dateRange';

describe('dateRange', () => {
  it('covers the whole precision of partial dates', () => {
    expect(dateRange('2020')).toEqual({ low: '2020-01-01T00:00:00.000Z', high: '2020-12-31T23:59:59.999Z' });
    expect(dateRange('2020-02')).toEqual({ low: '2020-02-01T00:00:00.000Z', high: '2020-02-29T23:59:59.999Z' });
    expect(dateRange('2021-02-28')).toEqual({ low: '2021-02-28T00:00:00.000Z', high: '2021-02-28T23:59:59.999Z' });
  });

  it('applies time zones and second precision', () => {
    expect(dateRange('2020-05-01T10:00:00+02:00')).toEqual({
      low: '2020-05-01T08:00:00.000Z',
      high: '2020-05-01T08:00:00.999Z',
    });
    expect(dateRange('2020-05-01T10:00:00.250Z')).toEqual({
      low: '2020-05-01T10:00:00.250Z',
      high: '2020-05-01T10:00:00.250Z',
    });
    expect(dateRange('2020-05-01T10:00Z')).toEqual({
      low: '2020-05-01T10:00:00.000Z',
      high: '2020-05-01T10:00:59.999Z',
    });
  });

  it('rejects what is not a date', () => {
    expect(dateRange('yesterday')).toBeUndefined();
    expect(dateRange('2020-13')).toBeUndefined();
    expect(dateRange('20-01-01')).toBeUndefined();
  });
});
