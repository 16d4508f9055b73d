import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import { formatObservationValue } from './formatObservationValue';

const base: Observation = { resourceType: 'Observation', status: 'final', code: { text: 'Test' } };

describe('formatObservationValue', () => {
  it('writes each kind of value', () => {
    expect(formatObservationValue({ ...base, valueQuantity: { value: 13.2, unit: 'g/dL' } })).toBe('13.2 g/dL');
    expect(formatObservationValue({ ...base, valueCodeableConcept: { text: 'Positive' } })).toBe('Positive');
    expect(formatObservationValue({ ...base, valueString: 'clear' })).toBe('clear');
    expect(formatObservationValue({ ...base, valueBoolean: false })).toBe('no');
    expect(formatObservationValue({ ...base, valueInteger: 0 })).toBe('0');
    expect(
      formatObservationValue({
        ...base,
        valueRange: { low: { value: 1, unit: 'mg' }, high: { value: 2, unit: 'mg' } },
      }),
    ).toBe('1 - 2 mg');
    expect(
      formatObservationValue({ ...base, valueRatio: { numerator: { value: 1 }, denominator: { value: 128 } } }),
    ).toBe('1 / 128');
    expect(formatObservationValue({ ...base, valueTime: '08:30:00' })).toBe('08:30:00');
    expect(
      formatObservationValue({ ...base, valueSampledData: { origin: { value: 0 }, period: 10, dimensions: 1 } }),
    ).toBe('sampled data');
  });

  it('says why a value is missing', () => {
    expect(formatObservationValue({ ...base, dataAbsentReason: { text: 'Not performed' } })).toBe('Not performed');
    expect(formatObservationValue(base)).toBe('');
  });

  it('writes every component, not only quantities, and skips empty ones', () => {
    const observation: Observation = {
      ...base,
      component: [
        { code: { text: 'Systolic' }, valueQuantity: { value: 120, unit: 'mmHg' } },
        { code: { text: 'Diastolic' }, valueQuantity: { value: 80, unit: 'mmHg' } },
        { code: { text: 'Cuff' }, valueCodeableConcept: { text: 'Adult' } },
        { code: { text: 'Empty' } },
      ],
    };
    expect(formatObservationValue(observation)).toBe('Systolic: 120 mmHg; Diastolic: 80 mmHg; Cuff: Adult');
  });

  it('puts the own value before the components', () => {
    const observation: Observation = {
      ...base,
      valueString: 'see parts',
      component: [{ code: { text: 'Part' }, valueInteger: 3 }],
    };
    expect(formatObservationValue(observation)).toBe('see parts; Part: 3');
  });

  it('formats dates with the caller’s rule when given', () => {
    const observation: Observation = { ...base, valueDateTime: '2024-03-07T10:00:00Z' };
    expect(formatObservationValue(observation, { dateTime: (v) => `day ${v.slice(0, 10)}` })).toBe('day 2024-03-07');
    expect(formatObservationValue({ ...base, valuePeriod: { start: '2024-03-07' } }, { period: () => 'open' })).toBe(
      'open',
    );
    expect(formatObservationValue(observation)).toContain('2024');
  });
});
