import { describe, expect, it } from 'vitest';
import { getReferenceString, parseReferenceString } from './referenceString';

describe('getReferenceString', () => {
  it('builds Type/id for a resource', () => {
    expect(getReferenceString({ resourceType: 'Patient', id: '123' })).toBe('Patient/123');
  });
  it('keeps the reference string a Reference already has', () => {
    expect(getReferenceString({ reference: 'Practitioner/9', display: 'Dr X' })).toBe('Practitioner/9');
    expect(getReferenceString({ reference: 'urn:uuid:1f3c…' })).toBe('urn:uuid:1f3c…');
  });
  it('answers undefined for a Reference without a reference string', () => {
    expect(getReferenceString({ identifier: { value: 'x' } })).toBeUndefined();
    expect(getReferenceString({ reference: '' })).toBeUndefined();
  });
  it('refuses a resource that has no id', () => {
    expect(() => getReferenceString({ resourceType: 'Patient' })).toThrow('Cannot reference a Patient that has no id');
  });
});

describe('parseReferenceString', () => {
  it('splits Type/id', () => {
    expect(parseReferenceString('Patient/abc-1.2')).toEqual({ resourceType: 'Patient', id: 'abc-1.2' });
  });
  it('rejects what is not a literal relative reference', () => {
    for (const value of [
      undefined,
      '',
      'Patient',
      'Patient/',
      'patient/1',
      '#contained',
      'urn:uuid:x',
      'http://x/Patient/1',
      'Patient/1/_history/2',
      `Patient/${'a'.repeat(65)}`,
    ]) {
      expect(parseReferenceString(value), String(value)).toBeUndefined();
    }
  });
});
