import { describe, expect, it } from 'vitest';
import type { Organization, Patient, Practitioner } from '@medplum/fhirtypes';
import { formatDate } from '../../data-provider/formatting';
import { referenceOptionDetail, referenceValueLabel } from './referenceOptionLabel';

const today = new Date(2024, 5, 15);
const mrType = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'MR' }], text: 'MRN' };

describe('referenceValueLabel', () => {
  it('is the display alone, else the reference', () => {
    expect(referenceValueLabel({ reference: 'Patient/5c1f0a2b-1111', display: 'Wendy Littel' })).toBe('Wendy Littel');
    expect(referenceValueLabel({ reference: 'Patient/5c1f0a2b-1111' })).toBe('Patient/5c1f0a2b-1111');
    expect(referenceValueLabel({ reference: 'Patient/5c1f0a2b-1111', display: '  ' })).toBe('Patient/5c1f0a2b-1111');
    expect(referenceValueLabel(undefined)).toBe('');
  });
});

describe('referenceOptionDetail', () => {
  it('a patient: birth date as the lists show it, with age, then gender and MRN (never a UUID-looking one)', () => {
    const patient: Patient = {
      resourceType: 'Patient',
      id: '5c1f0a2b-0000-4000-8000-000000000001',
      birthDate: '1972-03-12',
      gender: 'female',
      identifier: [
        { type: mrType, value: '0f9e8d7c-0000-4000-8000-000000000009' },
        { type: mrType, value: '12345' },
      ],
    };
    expect(referenceOptionDetail(patient, today)).toBe(`${formatDate('1972-03-12')} (52 y) · female · MRN: 12345`);
  });

  it('a patient who has died is not given the age they would be today', () => {
    const patient: Patient = { resourceType: 'Patient', id: 'p', birthDate: '1915-07-03', deceasedBoolean: true };
    expect(referenceOptionDetail(patient, today)).toBe(`${formatDate('1915-07-03')} · deceased`);
  });

  it('a patient with nothing to tell them apart: the type and a short id', () => {
    expect(referenceOptionDetail({ resourceType: 'Patient', id: '5c1f0a2b-0000-4000-8000-000000000001' }, today)).toBe(
      'Patient · 5c1f0a2b',
    );
  });

  it('a practitioner: qualification and identifier; else the type and a short id', () => {
    const practitioner: Practitioner = {
      resourceType: 'Practitioner',
      id: 'a1b2c3d4e5f6',
      qualification: [{ code: { coding: [{ code: 'MD', display: 'Doctor of Medicine' }] } }],
      identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
    };
    expect(referenceOptionDetail(practitioner)).toBe('Doctor of Medicine · 1234567893');
    expect(referenceOptionDetail({ resourceType: 'Practitioner', id: 'a1b2c3d4e5f6' })).toBe('Practitioner · a1b2c3d4');
    // A staff account with neither: its e-mail, else its phone, before a bare id.
    const staff: Practitioner = {
      resourceType: 'Practitioner',
      id: 'a0f13e86aa',
      telecom: [
        { system: 'phone', value: '+1 555 0100' },
        { system: 'email', value: 'alice@demo.hearth.example' },
      ],
    };
    expect(referenceOptionDetail(staff)).toBe('alice@demo.hearth.example');
    expect(referenceOptionDetail({ ...staff, telecom: [staff.telecom![0]] })).toBe('+1 555 0100');
  });

  it('another type: the type and the first 8 characters of the id', () => {
    const organization: Organization = { resourceType: 'Organization', id: '0123456789abcdef', name: 'Clinic' };
    expect(referenceOptionDetail(organization)).toBe('Organization · 01234567');
  });
});
