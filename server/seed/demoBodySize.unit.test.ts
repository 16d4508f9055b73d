import type { Observation, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { bodySizeSeries, latestBodySize, medianBodySize } from './demoBodySize';

const patient = (gender: Patient['gender'], birthDate?: string): Patient => ({
  resourceType: 'Patient',
  gender,
  ...(birthDate ? { birthDate } : {}),
});
const measurement = (code: string, value: number, unit: string, date: string, status = 'final'): Observation => ({
  resourceType: 'Observation',
  status: status as Observation['status'],
  code: { coding: [{ system: 'http://loinc.org', code }] },
  effectiveDateTime: date,
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});
const height = (value: number, date: string) => measurement('8302-2', value, 'cm', date);
const weight = (value: number, date: string) => measurement('29463-7', value, 'kg', date);
/** Twelve monthly visit ages starting at `first`. */
const visitAges = (first: number) => Array.from({ length: 12 }, (_, visit) => first + visit / 12);

describe('latestBodySize', () => {
  // Wendy Littel's record (Synthea): her last height and weight, in January 2020, at 19.
  const wendy = patient('female', '2000-11-15');
  const record = [
    height(163.1, '2017-01-04T22:06:51+00:00'),
    weight(61.2, '2017-01-04T22:06:51+00:00'),
    height(165.7620637469418, '2020-01-15T22:06:51+00:00'),
    weight(68.50125523657802, '2020-01-15T22:06:51+00:00'),
    measurement('29463-7', 90, 'kg', '2021-01-01T00:00:00Z', 'entered-in-error'),
    measurement('8867-4', 72, '/min', '2021-01-01T00:00:00Z'),
  ];

  it("is the record's newest height and weight, whatever order they come in", () => {
    const size = latestBodySize(wendy, [...record].reverse());
    expect(size).toMatchObject({ heightCm: 165.8, weightKg: 68.5 });
    expect(size?.ageAtMeasurement).toBeCloseTo(19.17, 1);
  });

  it('is undefined for a record without either', () => {
    expect(latestBodySize(wendy, [measurement('8867-4', 72, '/min', '2021-01-01T00:00:00Z')])).toBeUndefined();
  });

  it("fills a missing height with the median for the weight's age and sex", () => {
    expect(latestBodySize(wendy, [weight(68.5, '2020-01-15T00:00:00Z')])).toMatchObject({
      heightCm: 163.1,
      weightKg: 68.5,
    });
  });
});

describe('medianBodySize', () => {
  it('is a child’s size for a child, not an adult’s', () => {
    // CDC 2000, 50th percentile: boys of 7 about 122 cm and 23 kg, girls of 12 about 151.5 cm and 42 kg.
    expect(medianBodySize('male', 7)).toEqual({ heightCm: 121.9, weightKg: 23.3 });
    expect(medianBodySize('female', 12)).toEqual({ heightCm: 151.5, weightKg: 41.8 });
    expect(medianBodySize('female', 0).heightCm).toBe(49.1);
  });

  it('is an adult’s by sex from 18 on, and for an unknown age', () => {
    expect(medianBodySize('male', 45)).toEqual({ heightCm: 176.2, weightKg: 67.3 });
    expect(medianBodySize('female', 30)).toEqual({ heightCm: 163.1, weightKg: 56.2 });
    expect(medianBodySize('female', undefined)).toEqual({ heightCm: 163.1, weightKg: 56.2 });
    // Neither sex's: halfway between a man's and a woman's.
    const unknown = medianBodySize('unknown', 30);
    expect(unknown.heightCm).toBeCloseTo((176.2 + 163.1) / 2, 0);
    expect(unknown.weightKg).toBeCloseTo((67.3 + 56.2) / 2, 0);
  });
});

describe('bodySizeSeries', () => {
  const wendy = patient('female', '2000-11-15');

  it("continues an adult's measurement: the same height, the weight from where it was, a BMI that fits", () => {
    const series = bodySizeSeries(wendy, { heightCm: 165.8, weightKg: 68.5, ageAtMeasurement: 19.2 }, visitAges(24.5));
    expect(series).toHaveLength(12);
    expect(series[0]).toEqual({ heightCm: 165.8, weightKg: 68.5, bmi: 24.9 });
    for (const [visit, size] of series.entries()) {
      expect(size.heightCm).toBe(165.8);
      expect(Math.abs(size.weightKg - 68.5)).toBeLessThan(0.5);
      expect(size.bmi).toBeCloseTo(size.weightKg / 1.658 ** 2, 1);
      if (visit > 0) expect(Math.abs(size.weightKg - series[visit - 1].weightKg)).toBeLessThan(1);
    }
  });

  it('takes about 5 % off an overweight adult over the year, month by month', () => {
    const series = bodySizeSeries(patient('male'), { heightCm: 168.8, weightKg: 86.8 }, visitAges(40));
    expect(series[0].weightKg).toBe(86.8);
    expect(series[11].weightKg).toBeGreaterThan(81.5);
    expect(series[11].weightKg).toBeLessThan(83.5);
    expect(series[11].bmi).toBeLessThan(series[0].bmi);
  });

  it('keeps a child on their growth curve from an old measurement, and grows them through the year', () => {
    // Measured at 6 a little above the median (118 cm, 22 kg); the visits are at 9.
    const series = bodySizeSeries(
      patient('male', '2017-03-02'),
      { heightCm: 118, weightKg: 22, ageAtMeasurement: 6 },
      visitAges(9),
    );
    expect(series[0].heightCm).toBeGreaterThan(133);
    expect(series[0].heightCm).toBeLessThan(138);
    expect(series[11].heightCm).toBeGreaterThan(series[0].heightCm);
    expect(series[11].weightKg).toBeGreaterThan(series[0].weightKg);
  });

  it('falls back to the median for age and sex without a measurement', () => {
    const child = bodySizeSeries(patient('female', '2018-01-01'), undefined, visitAges(7.5));
    expect(child[0].heightCm).toBeCloseTo(124.6, 0);
    expect(child[0].weightKg).toBeLessThan(30);
    const adult = bodySizeSeries(patient('male', '1980-01-01'), undefined, visitAges(45));
    expect(adult[0]).toMatchObject({ heightCm: 176.2, weightKg: 67.3 });
  });
});
