import { describe, expect, it } from 'vitest';
import type { Medication, MedicationRequest, Practitioner } from '@medplum/fhirtypes';
import { referenceName, referenceNamesOf } from './referenceNames';

// As Synthea writes them (synthetic data, Apache-2.0): a practitioner and a medication, referenced without displays.
const practitioner: Practitioner = {
  resourceType: 'Practitioner',
  id: '694a34a3-af6e-49a5-89e3-adc7235bc923',
  identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '110' }],
  name: [{ family: 'Yundt', given: ['Keeley'], prefix: ['Dr.'] }],
  gender: 'female',
};
const medication: Medication = {
  resourceType: 'Medication',
  id: 'b599f7ec-1f2e-458e-9c87-da452cca1943',
  code: {
    coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '316672', display: 'Simvistatin 10 MG' }],
  },
};

describe('reference names', () => {
  const names = referenceNamesOf([practitioner, medication, { resourceType: 'Practitioner', id: 'nameless' }]);

  it('names included resources by Type/id: a person by name, a medication by its code', () => {
    expect(names.get(`Practitioner/${practitioner.id}`)).toMatch(/Keeley Yundt/);
    expect(names.get(`Medication/${medication.id}`)).toBe('Simvistatin 10 MG');
    expect(names.has('Practitioner/nameless')).toBe(false);
  });

  it('reads a reference by its display, else the included name, else what kind of thing it is — never the id', () => {
    expect(referenceName({ reference: 'Practitioner/x', display: 'Dr. Alice Carter' }, names)).toBe('Dr. Alice Carter');
    expect(referenceName({ reference: `Practitioner/${practitioner.id}` }, names)).toMatch(/Keeley Yundt/);
    expect(referenceName({ reference: `https://ehr.example/fhir/Medication/${medication.id}` }, names)).toBe(
      'Simvistatin 10 MG',
    );
    expect(referenceName({ reference: 'Practitioner/694a34a3-af6e-49a5-89e3-adc7235bc923' })).toBe('Practitioner');
    expect(referenceName({ reference: 'Practitioner?identifier=http://hl7.org/fhir/sid/us-npi|110' })).toBe(
      'Practitioner',
    );
    expect(referenceName({ reference: 'urn:uuid:11cb6f4d-10ad-4f18-bc2d-7ed1d4ca0e7e' })).toBe('');
    expect(referenceName(undefined)).toBe('');
  });

  it('names a practitioner role by who holds it, else where, else what it is', () => {
    const held = referenceNamesOf([
      {
        resourceType: 'PractitionerRole',
        id: 'r1',
        practitioner: { reference: `Practitioner/${practitioner.id}` },
        organization: { reference: 'Organization/o1' },
      },
      practitioner,
      { resourceType: 'Organization', id: 'o1', name: 'Hillside Clinic' },
      { resourceType: 'PractitionerRole', id: 'r2', organization: { reference: 'Organization/o1' } },
      { resourceType: 'PractitionerRole', id: 'r3', practitioner: { reference: 'Practitioner/x', display: 'Dr. Ng' } },
      { resourceType: 'PractitionerRole', id: 'r4', code: [{ text: 'General practitioner' }] },
      { resourceType: 'PractitionerRole', id: 'r5', practitioner: { reference: 'Practitioner/unread' } },
    ]);
    expect(held.get('PractitionerRole/r1')).toMatch(/Keeley Yundt/);
    expect(held.get('PractitionerRole/r2')).toBe('Hillside Clinic');
    expect(held.get('PractitionerRole/r3')).toBe('Dr. Ng');
    expect(held.get('PractitionerRole/r4')).toBe('General practitioner');
    expect(held.has('PractitionerRole/r5')).toBe(false);
  });

  it('reads a reference to a contained resource from the resource that holds it', () => {
    const order: MedicationRequest = {
      resourceType: 'MedicationRequest',
      status: 'active',
      intent: 'order',
      subject: { reference: 'Patient/p1' },
      contained: [{ ...medication, id: 'med1' }],
      medicationReference: { reference: '#med1' },
    };
    expect(referenceName(order.medicationReference, undefined, order)).toBe('Simvistatin 10 MG');
    expect(referenceName({ reference: '#missing' }, undefined, order)).toBe('');
  });
});
