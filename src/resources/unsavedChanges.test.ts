import { describe, expect, it } from 'vitest';
import type { Practitioner } from '@medplum/fhirtypes';
import { hasUnsavedChanges, leavesPage, sameJson } from './unsavedChanges';

const base: Practitioner = {
  resourceType: 'Practitioner',
  id: 'pr1',
  meta: { versionId: '1' },
  name: [{ given: ['Ann'], family: 'Lee' }],
  active: true,
};

describe('unsavedChanges', () => {
  it('compares JSON deeply, object key order aside, array order counting', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });

  it('has no unsaved changes before the first edit or when the edit was undone', () => {
    expect(hasUnsavedChanges(base, undefined)).toBe(false);
    expect(hasUnsavedChanges(base, structuredClone(base))).toBe(false);
    // Retyped: keys come back in another order, an emptied optional field is left as ''.
    const retyped = {
      active: true,
      name: [{ family: 'Lee', given: ['Ann'] }],
      id: 'pr1',
      resourceType: 'Practitioner',
      meta: { versionId: '1' },
      gender: '',
    };
    expect(hasUnsavedChanges(base, retyped as Practitioner)).toBe(false);
  });

  it('has unsaved changes when a value differs, is added or is removed', () => {
    expect(hasUnsavedChanges(base, { ...base, name: [{ given: ['Ann'], family: 'Leigh' }] })).toBe(true);
    expect(hasUnsavedChanges(base, { ...base, gender: 'female' })).toBe(true);
    expect(hasUnsavedChanges(base, { ...base, active: undefined })).toBe(true);
  });

  it('counts anything typed into a new, empty resource', () => {
    const blank = { resourceType: 'Practitioner' } as Practitioner;
    expect(hasUnsavedChanges(blank, { resourceType: 'Practitioner', name: [{ family: '' }] } as Practitioner)).toBe(
      false,
    );
    expect(hasUnsavedChanges(blank, { resourceType: 'Practitioner', name: [{ family: 'L' }] } as Practitioner)).toBe(
      true,
    );
  });

  it('leaves the page only when the path changes', () => {
    expect(leavesPage({ pathname: '/ChargeItem/c1/edit' }, { pathname: '/ChargeItem/c1/details' })).toBe(true);
    expect(leavesPage({ pathname: '/ChargeItem/c1/edit' }, { pathname: '/ChargeItem/c1/edit' })).toBe(false);
  });
});
