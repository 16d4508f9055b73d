import type { Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { createJsonPatch } from './jsonPatch';

describe('createJsonPatch', () => {
  const original: Patient = {
    resourceType: 'Patient',
    id: 'p',
    meta: { versionId: '7', lastUpdated: '2024-01-01T00:00:00Z' },
    name: [{ given: ['Ann'], family: 'Lee' }],
    gender: 'female',
    'a/b~c': 1,
  } as unknown as Patient;

  it('is only the version test for an untouched resource', () => {
    expect(createJsonPatch(original, structuredClone(original))).toEqual([
      { op: 'test', path: '/meta/versionId', value: '7' },
    ]);
  });

  it('adds, replaces and removes, guarded by meta.versionId, with escaped pointers', () => {
    const updated = structuredClone(original) as Patient & Record<string, unknown>;
    updated.name = [{ given: ['Anna'], family: 'Lee' }];
    delete updated.gender;
    updated.birthDate = '1990-01-01';
    updated['a/b~c'] = 2;
    updated.meta = { versionId: '8', lastUpdated: '2025-01-01T00:00:00Z' };
    expect(createJsonPatch(original, updated)).toEqual([
      { op: 'test', path: '/meta/versionId', value: '7' },
      { op: 'remove', path: '/gender' },
      { op: 'replace', path: '/name/0/given/0', value: 'Anna' },
      { op: 'replace', path: '/a~1b~0c', value: 2 },
      { op: 'add', path: '/birthDate', value: '1990-01-01' },
    ]);
  });

  it('replaces an array whose length changed', () => {
    const updated = { ...original, name: [...(original.name ?? []), { family: 'Two' }] };
    expect(createJsonPatch(original, updated).slice(1)).toEqual([
      { op: 'replace', path: '/name', value: updated.name },
    ]);
  });

  it('has no test without a versionId (a resource never saved)', () => {
    expect(createJsonPatch({ resourceType: 'Patient' }, { resourceType: 'Patient', active: true })).toEqual([
      { op: 'add', path: '/active', value: true },
    ]);
  });
});
