import { describe, expect, it } from 'vitest';
import { validateResource } from '../../server/validation/resourceValidator';
import { generatePatientBundle } from './clinicGenerator';

describe('generatePatientBundle', () => {
  it('makes the same valid patient for the same index, and another for another', () => {
    const bundle = generatePatientBundle(7);
    expect(generatePatientBundle(7)).toEqual(bundle);
    expect(generatePatientBundle(8)).not.toEqual(bundle);
    expect(bundle.entry?.length).toBe(97);
    for (const entry of bundle.entry ?? [])
      expect(validateResource(entry.resource), JSON.stringify(entry.resource)).toEqual([]);
    const types = new Set<string | undefined>(bundle.entry?.map((e) => e.resource?.resourceType));
    for (const type of [
      'Patient',
      'Encounter',
      'Observation',
      'Condition',
      'MedicationRequest',
      'Task',
      'Communication',
      'ServiceRequest',
      'DiagnosticReport',
      'DocumentReference',
      'Appointment',
      'CarePlan',
      'AllergyIntolerance',
      'Device',
    ]) {
      expect(types.has(type)).toBe(true);
    }
  });
});
