import type { Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { CLINIC_MRN_SYSTEM } from '../../../config/clinical/patientDemographics';
import { EMPTY_DRAFT } from './newPatient';
import {
  duplicateCheckKey,
  possibleDuplicateLine,
  possibleDuplicateSearch,
  sameNameAndBirthDate,
} from './possibleDuplicate';

const draft = { ...EMPTY_DRAFT, given: 'María José', family: "O'Connor-Núñez", birthDate: '1979-02-28', mrn: 'MRN-2' };
const maria: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  name: [{ given: ['Maria', 'Jose'], family: "O'Connor-Nunez" }],
  birthDate: '1979-02-28',
  identifier: [{ system: CLINIC_MRN_SYSTEM, value: 'MRN-1' }],
};

describe('possible duplicate registration', () => {
  it('searches by family, first given name and birth date, and not at all without a birth date', () => {
    expect(possibleDuplicateSearch(draft)).toEqual({
      family: "O'Connor-Núñez",
      given: 'María',
      birthdate: '1979-02-28',
      _count: '5',
    });
    expect(possibleDuplicateSearch({ ...draft, birthDate: '' })).toBeUndefined();
  });
  it('keeps the same name and birth date whatever the accents and case, and drops prefix matches and other days', () => {
    const prefix: Patient = { ...maria, id: 'p2', name: [{ given: ['Mariana'], family: "O'Connor-Nunez" }] };
    const otherDay: Patient = { ...maria, id: 'p3', birthDate: '1979-02-27' };
    expect(sameNameAndBirthDate(draft, [maria, prefix, otherDay]).map((patient) => patient.id)).toEqual(['p1']);
  });
  it('names the candidate with birth date and MRN, and keys a confirmation to the name and day', () => {
    expect(possibleDuplicateLine(maria)).toBe("Maria Jose O'Connor-Nunez, born 28 Feb 1979, MRN MRN-1");
    expect(duplicateCheckKey(draft)).toBe(duplicateCheckKey({ ...draft, given: 'MARIA  Josefa', mrn: 'other' }));
    expect(duplicateCheckKey(draft)).not.toBe(duplicateCheckKey({ ...draft, birthDate: '1979-03-01' }));
  });
});
