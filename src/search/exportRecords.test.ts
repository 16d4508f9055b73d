import { describe, expect, it } from 'vitest';
import type { Patient } from '@medplum/fhirtypes';
import { EXPORT_LIMIT, toCsv, toTransactionBundle } from './exportRecords';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { columnSearchParameter, fieldLabel } from './searchColumns';

const patients: Patient[] = [
  { resourceType: 'Patient', id: 'a', meta: { versionId: '1', lastUpdated: '2024-01-02T03:04:05Z' }, gender: 'female' },
  {
    resourceType: 'Patient',
    id: 'b',
    meta: { versionId: '2' },
    gender: 'male',
    name: [{ given: ['Al, "Jr"'], family: 'X' }],
  },
];

describe('export', () => {
  it('is limited to 1,000 records', () => expect(EXPORT_LIMIT).toBe(1000));

  it('writes the shown columns as CSV with quoting', () => {
    const csv = toCsv(patients, ['_id', 'gender', 'name'], undefined);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('ID,Gender,Name');
    expect(lines[1]).toBe('a,female,');
    expect(lines[2]).toBe('b,male,"Al, ""Jr"" X"');
  });

  it('writes a transaction Bundle of PUTs by id without server metadata', () => {
    const bundle = toTransactionBundle(patients);
    expect(bundle.type).toBe('transaction');
    expect(bundle.entry?.map((e) => e.request)).toEqual([
      { method: 'PUT', url: 'Patient/a' },
      { method: 'PUT', url: 'Patient/b' },
    ]);
    expect(bundle.entry?.[0].resource).toEqual({ resourceType: 'Patient', id: 'a', gender: 'female' });
  });
});

describe('search columns', () => {
  it('label fields for people', () => {
    expect(fieldLabel('_id')).toBe('ID');
    expect(fieldLabel('_lastUpdated')).toBe('Last Updated');
    expect(fieldLabel('birthDate')).toBe('Birth Date');
    expect(fieldLabel('meta.versionId')).toBe('Version ID');
  });

  it('find the search parameter of a column by code or by the element it searches', () => {
    const parameters = [
      { code: '_lastUpdated', type: 'date', expression: 'Resource.meta.lastUpdated', target: [], base: [] },
      { code: 'birthdate', type: 'date', expression: 'Patient.birthDate | Person.birthDate', target: [], base: [] },
      { code: 'gender', type: 'token', expression: 'Patient.gender', target: [], base: [] },
    ] as unknown as SearchParameterModel[];
    const schema = { type: 'Patient' } as TypeSchema;
    expect(columnSearchParameter('birthDate', schema, parameters)?.code).toBe('birthdate');
    expect(columnSearchParameter('gender', schema, parameters)?.code).toBe('gender');
    expect(columnSearchParameter('_lastUpdated', schema, parameters)?.code).toBe('_lastUpdated');
    expect(columnSearchParameter('photo', schema, parameters)).toBeUndefined();
  });
});
