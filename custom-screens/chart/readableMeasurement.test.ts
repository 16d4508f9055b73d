import { describe, expect, it } from 'vitest';
import { readableNumber, withReadableMeasurements } from './readableMeasurement';

describe('a measured number as a list shows it', () => {
  it('keeps at most four significant digits, never fewer than its whole part', () => {
    expect(readableNumber(14.111263586938584)).toBe(14.11);
    expect(readableNumber(358.82849223240333)).toBe(358.8);
    expect(readableNumber(4.698591090208186)).toBe(4.699);
    expect(readableNumber(0.000123456)).toBe(0.0001235);
    expect(readableNumber(12345.6)).toBe(12346);
    expect(readableNumber(-2.34567)).toBe(-2.346);
  });

  it('leaves a value that has no more digits than that as it is', () => {
    for (const value of [0, 5.4, 120, 36.85, 0.02, 1500]) expect(readableNumber(value)).toBe(value);
  });

  it('reads an Observation’s own quantity and its components’, and leaves the record as it was', () => {
    const observation = {
      resourceType: 'Observation' as const,
      status: 'final' as const,
      code: { text: 'Panel' },
      valueQuantity: { value: 3.061284883331637, unit: '{score}' },
      component: [{ code: { text: 'Part' }, valueQuantity: { value: 136.14159, unit: 'mm[Hg]' } }],
    };
    const readable = withReadableMeasurements(observation);
    expect(readable.valueQuantity).toEqual({ value: 3.061, unit: '{score}' });
    expect(readable.component?.[0]?.valueQuantity?.value).toBe(136.1);
    expect(observation.valueQuantity.value).toBe(3.061284883331637);
  });
});
