import { describe, expect, it } from 'vitest';
import { createReference } from './createReference';

describe('createReference', () => {
  it('references the resource with its display name', () => {
    expect(createReference({ resourceType: 'Patient', id: '1', name: [{ given: ['Ada'], family: 'King' }] })).toEqual({
      reference: 'Patient/1',
      display: 'Ada King',
    });
  });
  it('leaves out a display that would only repeat the reference', () => {
    expect(createReference({ resourceType: 'Patient', id: '1' })).toEqual({ reference: 'Patient/1' });
  });
  it('refuses an unsaved resource', () => {
    expect(() => createReference({ resourceType: 'Organization', name: 'X' })).toThrow('has no id');
  });
});
