import { describe, expect, it } from 'vitest';
import { draftErrors, draftToPatient, EMPTY_DRAFT, fieldOfIssuePath } from './newPatient';

const filled = {
  ...EMPTY_DRAFT,
  given: 'Ada  Mary',
  family: 'Lovelace',
  gender: 'female',
  mrn: 'MRN-1',
  birthDate: '1990-12-10',
};

describe('new patient form (onboarding)', () => {
  it('requires what US Core requires: a name, a gender and an identifier', () => {
    expect(draftErrors(EMPTY_DRAFT, '2026-01-01')).toEqual({
      given: 'Given name is required',
      family: 'Family name is required',
      gender: 'Gender is required',
      mrn: 'Medical record number is required',
    });
    expect(draftErrors(filled, '2026-01-01')).toEqual({});
  });

  it('refuses a birth date in the future or not a date, an e-mail without @ and letters in a phone', () => {
    expect(draftErrors({ ...filled, birthDate: '2030-01-01' }, '2026-01-01').birthDate).toBe(
      'Birth date cannot be in the future',
    );
    expect(draftErrors({ ...filled, birthDate: '1990-13-45' }, '2026-01-01').birthDate).toMatch(/must be a date/);
    expect(draftErrors({ ...filled, email: 'ada.example.com' }, '2026-01-01').email).toMatch(/name@example.com/);
    expect(draftErrors({ ...filled, phone: 'call me' }, '2026-01-01').phone).toMatch(/digits/);
  });

  it('builds a US Core Patient without empty strings, with race and ethnicity extensions', () => {
    const patient = draftToPatient({ ...filled, race: '2106-3', ethnicity: '2186-5', email: ' ada@example.com ' });
    expect(patient.meta?.profile).toEqual(['http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient']);
    expect(patient.name).toEqual([{ use: 'official', given: ['Ada', 'Mary'], family: 'Lovelace' }]);
    expect(patient.identifier?.[0]).toMatchObject({ system: 'urn:hearth:demo-clinic:mrn', value: 'MRN-1' });
    expect(patient.telecom).toEqual([{ system: 'email', value: 'ada@example.com' }]);
    expect(patient.address).toBeUndefined();
    expect(patient.extension?.map((e) => [e.url.split('/').pop(), e.extension?.[0].valueCoding?.code])).toEqual([
      ['us-core-race', '2106-3'],
      ['us-core-ethnicity', '2186-5'],
    ]);
    expect(JSON.stringify(patient)).not.toContain('""');
  });

  it('maps an issue path to its field, array indexes ignored', () => {
    expect(fieldOfIssuePath('Patient.name[0].given[1]')).toBe('given');
    expect(fieldOfIssuePath('Patient.identifier[0].value')).toBe('mrn');
    expect(fieldOfIssuePath('Patient.address[0].postalCode')).toBe('postalCode');
    expect(fieldOfIssuePath('Patient.photo')).toBeUndefined();
    // The e-mail's own issue goes under Email, wherever it sits in telecom; the phone's under Phone.
    const both = draftToPatient({ ...EMPTY_DRAFT, phone: '555-0100', email: 'ada@example' });
    expect(fieldOfIssuePath('Patient.telecom[1].value', both)).toBe('email');
    expect(fieldOfIssuePath('Patient.telecom[0].value', both)).toBe('phone');
    const emailOnly = draftToPatient({ ...EMPTY_DRAFT, email: 'ada@example' });
    expect(fieldOfIssuePath('Patient.telecom[0]', emailOnly)).toBe('email');
  });
});
