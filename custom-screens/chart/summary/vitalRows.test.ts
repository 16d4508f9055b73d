import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import { SINGLE_VITALS, SYSTOLIC } from '../../../config/clinical/vitals';
import { rangeFlag, rangeFor } from './rules/rangeFlag';
import { readableDate } from '../../../data-provider/formatting';
import { vitalReadings } from './rules/vitalReadings';
import { latestOfRow, latestValueText, VITAL_ROWS } from './vitalRows';

const bpRow = VITAL_ROWS.find((row) => row.id === 'bloodPressure')!;
const heartRow = VITAL_ROWS.find((row) => row.id === 'heartRate')!;

function panel(id: string, date: string, systolic?: number, diastolic?: number): Observation {
  return {
    resourceType: 'Observation',
    id,
    status: 'final',
    code: { coding: [{ code: '85354-9' }] },
    effectiveDateTime: date,
    component: [
      ...(systolic === undefined
        ? []
        : [{ code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: systolic } }]),
      ...(diastolic === undefined
        ? []
        : [{ code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: diastolic } }]),
    ],
  };
}

describe('latest value of a vitals row', () => {
  it('reads blood pressure parts from the newest panel only', () => {
    const readings = vitalReadings([panel('old', '2024-01-01', 150, 95), panel('new', '2024-03-12', 131)]);
    const latest = latestOfRow(bpRow, readings);
    expect(latestValueText(latest)).toBe('131/– mmHg');
    expect(latest.parts[1]?.reading).toBeUndefined();
    expect(latest.date).toBe('2024-03-12');
    expect(latestValueText(latestOfRow(bpRow, vitalReadings([panel('a', '2024-01-01', 120, 80)])))).toBe('120/80 mmHg');
  });

  it('says — before any reading and rounds to one decimal', () => {
    expect(latestValueText(latestOfRow(heartRow, new Map()))).toBe('—');
    const bmi = VITAL_ROWS.find((row) => row.id === 'bmi')!;
    const readings = vitalReadings([
      {
        resourceType: 'Observation',
        status: 'final',
        code: { coding: [{ code: '39156-5' }] },
        effectiveDateTime: '2024-01-01',
        valueQuantity: { value: 27.3456, unit: 'kg/m2' },
      },
    ]);
    expect(latestValueText(latestOfRow(bmi, readings))).toBe('27.3 kg/m²');
  });
});

describe('rangeFlag', () => {
  it('flags values outside the reference range and nothing without one', () => {
    expect(rangeFlag(101, { low: 60, high: 100 })).toBe('High');
    expect(rangeFlag(59, { low: 60, high: 100 })).toBe('Low');
    expect(rangeFlag(100, { low: 60, high: 100 })).toBeUndefined();
    expect(rangeFlag(500, undefined)).toBeUndefined();
  });

  it('judges against the range recorded on the Observation or component, else the config', () => {
    const heart = SINGLE_VITALS.find((v) => v.key === 'heartRate')!;
    const own: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ code: '8867-4' }] },
      referenceRange: [{ low: { value: 40 }, high: { value: 60 } }],
    };
    expect(rangeFor(own, heart)).toEqual({ low: 40, high: 60 });
    expect(rangeFor({ ...own, referenceRange: [{ low: { value: 40 } }] }, heart)).toEqual(heart.referenceRange);
    const bp: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ code: '85354-9' }] },
      referenceRange: [{ low: { value: 1 }, high: { value: 2 } }],
      component: [
        {
          code: { coding: [{ code: '8480-6' }] },
          referenceRange: [{ low: { value: 100 }, high: { value: 140 } }],
        },
      ],
    };
    expect(rangeFor(bp, SYSTOLIC)).toEqual({ low: 100, high: 140 });
  });
});

describe('readableDate', () => {
  it('uses three-letter months in every browser and the viewer’s day for a dateTime', () => {
    expect(readableDate('2024-09-05')).toBe('5 Sep 2024');
    const instant = new Date(2024, 8, 5, 23, 30);
    expect(readableDate(instant.toISOString())).toBe('5 Sep 2024');
    expect(readableDate('2024-13-01')).toBe('2024-13-01');
    expect(readableDate('not a date')).toBe('not a date');
  });
});
