import { afterEach, describe, expect, it, vi } from 'vitest';
import { calculateAge, calculateAgeString } from './calculateAge';

const originalTimeZone = process.env.TZ;
afterEach(() => {
  // Assigning undefined would set the zone named 'undefined'.
  if (originalTimeZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalTimeZone;
});

describe('calculateAge', () => {
  it('counts whole years, months and days separately', () => {
    expect(calculateAge('2000-01-15', '2001-03-20')).toEqual({ years: 1, months: 14, days: 430 });
  });
  it('counts a year or month only once the day is reached', () => {
    expect(calculateAge('2000-03-20', '2010-03-19').years).toBe(9);
    expect(calculateAge('2000-03-20', '2010-03-20').years).toBe(10);
    expect(calculateAge('2020-01-31', '2020-02-29').months).toBe(0);
    expect(calculateAge('2020-01-31', '2020-03-01').months).toBe(1);
  });
  it('reads a partial birth date as starting on the first', () => {
    expect(calculateAge('2000', '2000-12-31')).toEqual({ years: 0, months: 11, days: 365 });
    expect(calculateAge('2000-06', '2000-06-10').days).toBe(9);
  });
  it('takes the local calendar day of a Date, whatever the zone', () => {
    process.env.TZ = 'Pacific/Kiritimati';
    // 2020-03-01T11:00Z is already 2 March in Kiritimati (UTC+14).
    expect(calculateAge('2020-03-01', new Date('2020-03-01T11:00:00Z')).days).toBe(1);
    process.env.TZ = 'Pacific/Pago_Pago';
    expect(calculateAge('2020-03-01', new Date('2020-03-01T11:00:00Z')).days).toBe(0);
  });
  it('refuses invalid and future birth dates', () => {
    expect(() => calculateAge('2020-02-30', '2021-01-01')).toThrow('Invalid birth date: 2020-02-30');
    expect(() => calculateAge('20-1-1', '2021-01-01')).toThrow('Invalid birth date');
    expect(() => calculateAge('2020-01-01', 'soon')).toThrow('Invalid date: soon');
    expect(() => calculateAge('2020-01-01', new Date(Number.NaN))).toThrow('Invalid date');
    expect(() => calculateAge('2021-01-02', '2021-01-01')).toThrow('Birth date 2021-01-02 is after 2021-01-01');
  });
});

describe('calculateAgeString', () => {
  it('gives three digits and Y from two years on', () => {
    expect(calculateAgeString('1980-05-10', '2022-06-01')).toBe('042Y');
    expect(calculateAgeString('2020-06-01', '2022-06-01')).toBe('002Y');
    expect(calculateAgeString('1900-01-01', '2024-01-01')).toBe('124Y');
  });
  it('gives months from one month up to two years', () => {
    expect(calculateAgeString('2020-06-02', '2022-06-01')).toBe('023M');
    expect(calculateAgeString('2021-06-01', '2022-06-01')).toBe('012M');
    expect(calculateAgeString('2022-05-01', '2022-06-01')).toBe('001M');
  });
  it('gives days below one month', () => {
    expect(calculateAgeString('2022-05-02', '2022-06-01')).toBe('030D');
    expect(calculateAgeString('2022-06-01', '2022-06-01')).toBe('000D');
  });
  it('gives nothing without a birth date', () => {
    expect(calculateAgeString(undefined)).toBeUndefined();
  });
  it('uses today by default', () => {
    vi.useFakeTimers({ now: new Date(2022, 5, 1, 12) });
    try {
      expect(calculateAgeString('1992-06-01')).toBe('030Y');
      expect(calculateAgeString('1992-06-02')).toBe('029Y');
    } finally {
      vi.useRealTimers();
    }
  });
});
