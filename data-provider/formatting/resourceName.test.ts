import { describe, expect, it } from 'vitest';
import { nameOfResource } from './resourceName';

describe('nameOfResource', () => {
  it('names people by their name, medications by their code, organizations by their name', () => {
    expect(nameOfResource({ resourceType: 'Patient', id: 'p1', name: [{ given: ['Ana'], family: 'Lima' }] })).toBe(
      'Ana Lima',
    );
    expect(
      nameOfResource({ resourceType: 'Medication', id: 'm1', code: { coding: [{ display: 'Lisinopril 10 MG' }] } }),
    ).toBe('Lisinopril 10 MG');
    expect(nameOfResource({ resourceType: 'Organization', id: 'o1', name: 'Hillside Clinic' })).toBe('Hillside Clinic');
  });

  it('names a role by who holds it, else where it is held, else what it is', () => {
    const role = { resourceType: 'PractitionerRole' as const, id: 'r1', code: [{ text: 'General practitioner' }] };
    expect(
      nameOfResource({
        ...role,
        practitioner: { reference: 'Practitioner/p', display: 'Keeley Yundt' },
        organization: { display: 'Hillside' },
      }),
    ).toBe('Keeley Yundt');
    expect(nameOfResource({ ...role, organization: { display: 'Hillside' } })).toBe('Hillside');
    expect(nameOfResource(role)).toBe('General practitioner');
  });

  it('is empty, never the bare Type/id, when the resource has no name', () => {
    expect(nameOfResource({ resourceType: 'Patient', id: 'p2' })).toBe('');
    expect(nameOfResource({ resourceType: 'Organization', id: 'o2' })).toBe('');
  });

  it('falls back to a coded name when the display rule finds none', () => {
    expect(
      nameOfResource({
        resourceType: 'Observation',
        id: 'o3',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] },
      }),
    ).toBe('Heart rate');
    expect(
      nameOfResource({
        resourceType: 'Immunization',
        id: 'i1',
        status: 'completed',
        vaccineCode: { text: 'Influenza, seasonal' },
        patient: { reference: 'Patient/p1' },
        occurrenceDateTime: '2020-12-08',
      }),
    ).toBe('Influenza, seasonal');
    expect(
      nameOfResource({
        resourceType: 'Encounter',
        id: 'e1',
        status: 'finished',
        class: { code: 'AMB' },
        type: [{ coding: [{ code: '185349003', display: 'Encounter for check up' }] }],
      }),
    ).toBe('Encounter for check up');
    // A `type` that is a plain code is no name.
    expect(nameOfResource({ resourceType: 'Bundle', id: 'b1', type: 'collection' })).toBe('');
  });
});
