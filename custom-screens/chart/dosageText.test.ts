import { describe, expect, it } from 'vitest';
import type { Dosage } from '@medplum/fhirtypes';
import { dosageText } from './dosageText';

// The dosage instructions of the Synthea R4 sample bundles (synthetic data, Apache-2.0).
const ordered = {
  type: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/dose-rate-type', code: 'ordered' }] },
};
const daily: Dosage = {
  sequence: 1,
  timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
  asNeededBoolean: false,
  doseAndRate: [{ ...ordered, doseQuantity: { value: 1 } }],
};

describe('dosage text', () => {
  it("keeps the prescriber's own text", () => {
    expect(dosageText([{ text: 'Twice daily with food', timing: daily.timing }])).toBe('Twice daily with food');
  });

  it('reads structured dosages as a clinician would say them', () => {
    expect(dosageText([daily])).toBe('1 dose, once a day');
    expect(dosageText([{ ...daily, timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } } }])).toBe(
      '1 dose, twice a day',
    );
    expect(dosageText([{ ...daily, timing: { repeat: { frequency: 3, period: 1, periodUnit: 'd' } } }])).toBe(
      '1 dose, 3 times a day',
    );
    expect(dosageText([{ ...daily, timing: { repeat: { frequency: 1, period: 6, periodUnit: 'h' } } }])).toBe(
      '1 dose, every 6 hours',
    );
    expect(dosageText([{ ...daily, timing: { repeat: { frequency: 1, period: 60, periodUnit: 'd' } } }])).toBe(
      '1 dose, every 60 days',
    );
    expect(dosageText([{ sequence: 1, asNeededBoolean: true }])).toBe('As needed');
    expect(
      dosageText([
        {
          doseAndRate: [{ doseQuantity: { value: 500, unit: 'mg' } }],
          timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
          asNeededCodeableConcept: { text: 'pain' },
        },
      ]),
    ).toBe('500 mg, twice a day, as needed for pain');
  });

  it('is empty when there is nothing to say', () => {
    expect(dosageText(undefined)).toBe('');
    expect(dosageText([{ sequence: 1, asNeededBoolean: false }])).toBe('');
  });
});
