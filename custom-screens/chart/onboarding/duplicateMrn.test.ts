import { describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { CLINIC_MRN_SYSTEM } from '../../../config/clinical/patientDemographics';
import { duplicateMrnMessage, isRegisteredAsSent, mrnCondition, mrnSearch } from './duplicateMrn';

const sent: Patient = {
  resourceType: 'Patient',
  name: [{ given: ['Rosa'], family: 'Ibarra' }],
  birthDate: '1985-06-15',
  gender: 'female',
};

describe('a medical record number already registered', () => {
  it('is looked up in the clinic’s MRN system, its separators escaped', () => {
    expect(mrnSearch(' MRN-1 ')).toEqual({ identifier: `${CLINIC_MRN_SYSTEM}|MRN-1` });
    expect(mrnSearch('A,B|C$D\\E').identifier).toBe(`${CLINIC_MRN_SYSTEM}|A\\,B\\|C\\$D\\\\E`);
    expect(new URLSearchParams(mrnCondition('A,B')).get('identifier')).toBe(`${CLINIC_MRN_SYSTEM}|A\\,B`);
  });

  it('tells the patient the form sent from the one that already had the MRN', () => {
    expect(isRegisteredAsSent({ ...sent, id: 'new', meta: { versionId: '1' } }, sent)).toBe(true);
    expect(isRegisteredAsSent({ ...sent, name: [{ given: ['Ana'], family: 'Ibarra' }] }, sent)).toBe(false);
    expect(isRegisteredAsSent({ ...sent, birthDate: '1990-01-01' }, sent)).toBe(false);
  });

  it('names who has it, so a typo is told from a second registration', () => {
    expect(duplicateMrnMessage('MRN-1 ', sent)).toBe(
      'MRN MRN-1 is already registered to Rosa Ibarra, born 15 Jun 1985',
    );
    expect(duplicateMrnMessage('MRN-1', { resourceType: 'Patient' })).toBe(
      'MRN MRN-1 is already registered to another patient',
    );
  });
});
