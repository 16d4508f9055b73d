import { describe, expect, it } from 'vitest';
import type { VitalKey } from '../../../../config/clinical/vitals';
import {
  bloodPressurePairMessage,
  DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE,
  fahrenheitHint,
  implausibleVitals,
  VITAL_LIMITS,
  vitalLimitMessage,
} from './vitalLimits';
import { planVitals } from './vitalsObservations';

// Each limit with the message for a value just outside it (the unit as the form shows it).
const EDGES: [VitalKey, number, number, string][] = [
  ['systolic', 50, 300, 'Systolic must be between 50 and 300 mmHg'],
  ['diastolic', 20, 200, 'Diastolic must be between 20 and 200 mmHg'],
  ['heartRate', 20, 300, 'Heart rate must be between 20 and 300 /min'],
  ['respiratoryRate', 4, 80, 'Respiratory rate must be between 4 and 80 /min'],
  ['oxygen', 50, 100, 'Oxygen saturation must be between 50 and 100 %'],
  ['temperature', 25, 45, 'Temperature must be between 25 and 45 °C'],
  ['height', 20, 260, 'Height must be between 20 and 260 cm'],
  ['weight', 0.2, 500, 'Weight must be between 0.2 and 500 kg'],
  ['bmi', 5, 200, 'BMI must be between 5 and 200 kg/m²'],
  ['headCircumference', 15, 90, 'Head circumference must be between 15 and 90 cm'],
];

describe('vital limits', () => {
  it('has a limit for every vital the form offers', () => {
    expect(Object.keys(VITAL_LIMITS).sort()).toEqual(EDGES.map(([key]) => key).sort());
  });

  it.each(EDGES)('%s accepts %d and %d and refuses just outside them', (key, low, high, message) => {
    expect(VITAL_LIMITS[key]).toMatchObject({ low, high });
    expect(vitalLimitMessage(key, low)).toBeUndefined();
    expect(vitalLimitMessage(key, high)).toBeUndefined();
    expect(vitalLimitMessage(key, low - 0.1)).toBe(message);
    expect(vitalLimitMessage(key, high + 0.1)).toBe(message);
  });

  it('takes a newborn’s vitals', () => {
    expect(
      implausibleVitals({
        weight: 0.8,
        height: 33,
        bmi: 7.3,
        headCircumference: 24,
        heartRate: 180,
        respiratoryRate: 60,
      }),
    ).toEqual({});
  });
});

describe('the °F hint on temperature', () => {
  it('offers the °C of a temperature typed in °F', () => {
    expect(vitalLimitMessage('temperature', 98.6)).toBe('Temperature 98.6 looks like °F: enter °C (37.0)');
    expect(vitalLimitMessage('temperature', 101.3)).toBe('Temperature 101.3 looks like °F: enter °C (38.5)');
    // The °F that map onto the °C limits: 77 °F = 25 °C, 113 °F = 45 °C.
    expect(fahrenheitHint(77)).toBe('Temperature 77 looks like °F: enter °C (25.0)');
    expect(fahrenheitHint(113)).toBe('Temperature 113 looks like °F: enter °C (45.0)');
  });

  it('gives no hint for a °C value or one that is no temperature in either unit', () => {
    expect(fahrenheitHint(37)).toBeUndefined();
    expect(fahrenheitHint(76.9)).toBeUndefined();
    expect(fahrenheitHint(113.1)).toBeUndefined();
    expect(vitalLimitMessage('temperature', 60)).toBe('Temperature must be between 25 and 45 °C');
    expect(vitalLimitMessage('temperature', 400)).toBe('Temperature must be between 25 and 45 °C');
  });
});

describe('the blood pressure pair', () => {
  it('needs the diastolic below the systolic', () => {
    expect(bloodPressurePairMessage(120, 80)).toBeUndefined();
    expect(bloodPressurePairMessage(120, 119)).toBeUndefined();
    expect(bloodPressurePairMessage(120, 120)).toBe(DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE);
    expect(bloodPressurePairMessage(80, 120)).toBe(DIASTOLIC_NOT_BELOW_SYSTOLIC_MESSAGE);
  });

  it('is said under the diastolic, only when both parts are given and each is possible', () => {
    expect(implausibleVitals({ systolic: 80, diastolic: 120 })).toEqual({
      diastolic: 'Diastolic must be lower than systolic',
    });
    expect(implausibleVitals({ diastolic: 120 })).toEqual({});
    expect(implausibleVitals({ systolic: 40, diastolic: 120 })).toEqual({
      systolic: 'Systolic must be between 50 and 300 mmHg',
    });
  });
});

describe('planVitals with impossible values', () => {
  const patient = { reference: 'Patient/p1' };
  it('refuses the whole save with every message, the QA walk’s values among them', () => {
    const plan = planVitals(
      { systolic: '80', diastolic: '120', temperature: '98.6', oxygen: '140', heartRate: '72', weight: 'x' },
      patient,
      '2024-03-12T10:00:00Z',
    );
    expect(plan).toEqual({
      ok: false,
      errors: {
        diastolic: 'Diastolic must be lower than systolic',
        temperature: 'Temperature 98.6 looks like °F: enter °C (37.0)',
        oxygen: 'Oxygen saturation must be between 50 and 100 %',
        weight: 'Enter a number, e.g. 72 or 37.5',
      },
    });
  });
});
