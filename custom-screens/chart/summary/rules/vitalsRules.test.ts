import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import { bloodPressureComponents } from './bloodPressure';
import {
  isFiniteNumber,
  NEGATIVE_MESSAGE,
  NOT_A_NUMBER_MESSAGE,
  NOT_FINITE_MESSAGE,
  parseVitalInput,
} from './vitalsParsing';
import { NOTHING_TO_SAVE_MESSAGE, planVitals } from './vitalsObservations';
import { latestWithCode, vitalReadings } from './vitalReadings';

const patient = { reference: 'Patient/p1' };
const when = '2024-03-12T10:00:00Z';

describe('isFiniteNumber', () => {
  it('accepts numbers that can be stored and refuses NaN, infinities and non-numbers', () => {
    expect(isFiniteNumber(0)).toBe(true);
    expect(isFiniteNumber(-3.5)).toBe(true);
    expect(isFiniteNumber(NaN)).toBe(false);
    expect(isFiniteNumber(Infinity)).toBe(false);
    expect(isFiniteNumber(-Infinity)).toBe(false);
    expect(isFiniteNumber('12')).toBe(false);
    expect(isFiniteNumber(undefined)).toBe(false);
  });
});

describe('parseVitalInput', () => {
  it('reads blank as skipped', () => {
    expect(parseVitalInput('')).toEqual({ kind: 'blank' });
    expect(parseVitalInput('   ')).toEqual({ kind: 'blank' });
    expect(parseVitalInput(undefined)).toEqual({ kind: 'blank' });
  });

  it('reads decimals, with spaces around', () => {
    expect(parseVitalInput(' 72 ')).toEqual({ kind: 'valid', value: 72 });
    expect(parseVitalInput('37.5')).toEqual({ kind: 'valid', value: 37.5 });
    expect(parseVitalInput('.5')).toEqual({ kind: 'valid', value: 0.5 });
  });

  it('refuses what Number() would wrongly accept or what is not a number', () => {
    for (const text of ['abc', '12abc', '0x1F', '37,5', '1..2', '-', 'NaN', 'Infinity']) {
      expect(parseVitalInput(text), text).toEqual({ kind: 'invalid', message: NOT_A_NUMBER_MESSAGE });
    }
  });

  it('refuses numbers too large to be finite and negative values', () => {
    expect(parseVitalInput('1e400')).toEqual({ kind: 'invalid', message: NOT_FINITE_MESSAGE });
    expect(parseVitalInput('-4')).toEqual({ kind: 'invalid', message: NEGATIVE_MESSAGE });
  });
});

describe('bloodPressureComponents', () => {
  it('has one component per valid part, coded 8480-6 / 8462-4 in mm[Hg]', () => {
    const both = bloodPressureComponents({ kind: 'valid', value: 120 }, { kind: 'valid', value: 80 });
    expect(both.map((c) => [c.code.coding?.[0]?.code, c.valueQuantity?.value, c.valueQuantity?.code])).toEqual([
      ['8480-6', 120, 'mm[Hg]'],
      ['8462-4', 80, 'mm[Hg]'],
    ]);
  });

  it('keeps the one valid part and none when neither is', () => {
    const systolicOnly = bloodPressureComponents({ kind: 'valid', value: 130 }, { kind: 'blank' });
    expect(systolicOnly).toHaveLength(1);
    expect(systolicOnly[0]?.code.coding?.[0]?.code).toBe('8480-6');
    const diastolicOnly = bloodPressureComponents({ kind: 'invalid', message: 'x' }, { kind: 'valid', value: 85 });
    expect(diastolicOnly.map((c) => c.code.coding?.[0]?.code)).toEqual(['8462-4']);
    expect(bloodPressureComponents({ kind: 'blank' }, { kind: 'invalid', message: 'x' })).toEqual([]);
  });
});

describe('planVitals', () => {
  it('plans one preliminary vital-signs Observation per filled vital and skips blanks', () => {
    const plan = planVitals({ heartRate: '72', temperature: '37.2', weight: '', oxygen: '98' }, patient, when);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    const observations = plan.planned.map((p) => p.observation);
    expect(observations.map((o) => [o.code.coding?.[0]?.code, o.valueQuantity?.value, o.valueQuantity?.code])).toEqual([
      ['8867-4', 72, '/min'],
      ['8310-5', 37.2, 'Cel'],
      ['2708-6', 98, '%'],
    ]);
    for (const observation of observations) {
      expect(observation.status).toBe('preliminary');
      expect(observation.category?.[0]?.coding?.[0]).toMatchObject({ code: 'vital-signs' });
      expect(observation.subject).toEqual(patient);
      expect(observation.effectiveDateTime).toBe(when);
      expect(observation.valueQuantity?.system).toBe('http://unitsofmeasure.org');
    }
  });

  it('uses the units and codes of app-spec §9 for every vital', () => {
    const plan = planVitals(
      {
        heartRate: '72',
        temperature: '37',
        respiratoryRate: '16',
        height: '170',
        weight: '70',
        bmi: '24.2',
        oxygen: '98',
        headCircumference: '56',
      },
      patient,
      when,
    );
    if (!plan.ok) throw new Error('expected a plan');
    expect(
      Object.fromEntries(
        plan.planned.map((p) => [
          p.fields[0],
          [p.observation.code.coding?.[0]?.code, p.observation.valueQuantity?.unit],
        ]),
      ),
    ).toEqual({
      heartRate: ['8867-4', '/min'],
      temperature: ['8310-5', 'Cel'],
      respiratoryRate: ['9279-1', '/min'],
      height: ['8302-2', 'cm'],
      weight: ['29463-7', 'kg'],
      bmi: ['39156-5', 'kg/m2'],
      oxygen: ['2708-6', '%'],
      headCircumference: ['9843-4', 'cm'],
    });
  });

  it('saves a blood pressure with one valid part as one Observation with one component', () => {
    const plan = planVitals({ systolic: '128', diastolic: '' }, patient, when);
    if (!plan.ok) throw new Error('expected a plan');
    expect(plan.planned).toHaveLength(1);
    const [bp] = plan.planned;
    expect(bp?.fields).toEqual(['systolic', 'diastolic']);
    expect(bp?.observation.code.coding?.[0]?.code).toBe('85354-9');
    expect(bp?.observation.valueQuantity).toBeUndefined();
    expect(bp?.observation.component?.map((c) => c.code.coding?.[0]?.code)).toEqual(['8480-6']);
  });

  it('refuses the whole save when a typed value is not a number, with the message under that field', () => {
    const plan = planVitals({ heartRate: '72', temperature: 'hot', systolic: '1e999' }, patient, when);
    expect(plan).toEqual({
      ok: false,
      errors: { temperature: NOT_A_NUMBER_MESSAGE, systolic: NOT_FINITE_MESSAGE },
    });
  });

  it('refuses an empty form with a form message', () => {
    expect(planVitals({ heartRate: ' ' }, patient, when)).toEqual({
      ok: false,
      errors: {},
      formError: NOTHING_TO_SAVE_MESSAGE,
    });
  });
});

describe('vitalReadings', () => {
  const obs = (partial: Partial<Observation>): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
    ...partial,
  });

  it('collects readings per vital oldest first, from panels and stand-alone values, skipping errors', () => {
    const readings = vitalReadings([
      obs({ effectiveDateTime: '2024-03-02', valueQuantity: { value: 80, unit: '/min' } }),
      obs({ effectiveDateTime: '2024-03-01', valueQuantity: { value: 70, unit: '/min' } }),
      obs({ effectiveDateTime: '2024-03-03', status: 'entered-in-error', valueQuantity: { value: 999 } }),
      obs({ effectiveDateTime: '2024-03-04', valueQuantity: { value: NaN } }),
      obs({
        code: { coding: [{ code: '85354-9' }] },
        effectiveDateTime: '2024-03-05',
        component: [
          { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: 121, unit: 'mm[Hg]' } },
          { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: 79, unit: 'mm[Hg]' } },
        ],
      }),
      obs({ code: { coding: [{ code: '8480-6' }] }, effectiveDateTime: '2024-03-06', valueQuantity: { value: 135 } }),
      obs({ code: { coding: [{ code: '59408-5' }] }, effectiveDateTime: '2024-03-06', valueQuantity: { value: 97 } }),
    ]);
    expect(readings.get('heartRate')?.map((r) => r.value)).toEqual([70, 80]);
    expect(readings.get('systolic')?.map((r) => r.value)).toEqual([121, 135]);
    expect(readings.get('diastolic')?.map((r) => r.value)).toEqual([79]);
    expect(readings.get('oxygen')?.map((r) => r.value)).toEqual([97]);
    expect(readings.has('weight')).toBe(false);
  });

  it('latestWithCode picks the newest measurement, not the newest write', () => {
    const older = obs({ id: 'old', code: { coding: [{ code: '72166-2' }] }, effectiveDateTime: '2020-01-01' });
    const newer = obs({ id: 'new', code: { coding: [{ code: '72166-2' }] }, effectiveDateTime: '2023-01-01' });
    expect(latestWithCode([newer, older], ['72166-2'])?.id).toBe('new');
    expect(latestWithCode([older, newer], ['72166-2'])?.id).toBe('new');
    expect(latestWithCode([older], ['76690-7'])).toBeUndefined();
  });
});
