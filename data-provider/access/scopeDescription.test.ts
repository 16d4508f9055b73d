import { describe, expect, it } from 'vitest';
import { describeScope } from './scopeDescription';

describe('describeScope', () => {
  it('says what SMART v1 and v2 resource scopes allow, and about whom', () => {
    expect(describeScope('patient/*.read')).toBe('Read and search all records of the patient it is about');
    expect(describeScope('user/Observation.rs')).toBe('Read and search observation records you have access to');
    expect(describeScope('user/AllergyIntolerance.cruds')).toBe(
      'Read, search, create, change and delete allergy intolerance records you have access to',
    );
    expect(describeScope('patient/MedicationRequest.write')).toBe(
      'Create, change and delete medication request records of the patient it is about',
    );
    expect(describeScope('system/*.*')).toBe(
      'Read, search, create, change and delete all records you have access to, as a back-end service',
    );
    expect(describeScope('patient/Observation.r')).toBe('Read observation records of the patient it is about');
  });

  it('names a v2 query restriction', () => {
    expect(describeScope('patient/Observation.rs?category=laboratory')).toBe(
      'Read and search observation records of the patient it is about (only those where category=laboratory)',
    );
  });

  it('describes identity and launch scopes', () => {
    expect(describeScope('openid')).toBe('Know who you are (your sign-in identity)');
    expect(describeScope('launch')).toBe('Know which patient (and visit) is open in the chart');
    expect(describeScope('launch/patient')).toBe('Know which patient it is about');
    expect(describeScope('offline_access')).toMatch(/^Keep its access when you are away/);
  });

  it('promises nothing for scopes the server will not grant', () => {
    expect(describeScope('patient/Observation.dr')).toBe('Not a valid SMART scope: it grants nothing');
    expect(describeScope('user/observation.read')).toBe('Not a valid SMART scope: it grants nothing');
    expect(describeScope('smart/orchestrate_launch')).toBe('Not used by this server: it grants nothing');
  });
});
