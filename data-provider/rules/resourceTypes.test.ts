import { describe, expect, it } from 'vitest';
import { isKnownResourceType, knownResourceTypes } from './resourceTypes';

describe('knownResourceTypes', () => {
  it('holds R4 and Medplum types once each', () => {
    expect(new Set(knownResourceTypes).size).toBe(knownResourceTypes.length);
    for (const type of ['Patient', 'Observation', 'ImagingStudy', 'DiagnosticReport', 'Bundle', 'Project', 'Bot']) {
      expect(isKnownResourceType(type), type).toBe(true);
    }
  });
  it('rejects other names and non-strings', () => {
    expect(isKnownResourceType('Patients')).toBe(false);
    expect(isKnownResourceType('patient')).toBe(false);
    expect(isKnownResourceType('')).toBe(false);
    expect(isKnownResourceType(undefined)).toBe(false);
    expect(isKnownResourceType({ resourceType: 'Patient' })).toBe(false);
  });
});
