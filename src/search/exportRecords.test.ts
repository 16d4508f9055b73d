import { describe, expect, it } from 'vitest';
import type { Appointment, Patient } from '@medplum/fhirtypes';
import { EXPORT_LIMIT, toCsv, toTransactionBundle } from './exportRecords';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { buildTypeSchema } from '../../schema-engine/model/buildTypeSchema';
import { recordedDefinition } from '../../schema-engine/test-support/recordedDefinitions';
import { columnSearchParameter, columnSearchParameters, fieldLabel } from './searchColumns';

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

  it('says which of a patient’s names is a former one (maiden, old), as the table does', () => {
    const schema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Patient'));
    const estrella: Patient = {
      resourceType: 'Patient',
      id: 'e',
      name: [
        { use: 'official', given: ['Estrella'], family: 'Daugherty', prefix: ['Mrs.'] },
        { use: 'maiden', given: ['Estrella'], family: 'Friesen', prefix: ['Mrs.'] },
      ],
    };
    const lines = toCsv([estrella], ['name'], schema).trimEnd().split('\r\n');
    expect(lines[1]).toBe('"Mrs. Estrella Daugherty, Mrs. Estrella Friesen [maiden]"');
  });

  it('fills a search-parameter column as the table does (the parameters reach the formatter)', () => {
    const observation = {
      resourceType: 'Observation',
      id: 'o',
      status: 'final',
      code: { text: 'Weight' },
      valueQuantity: { value: 72, unit: 'kg' },
    } as const;
    const schema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Observation'));
    const parameters = [
      { code: 'value-quantity', type: 'quantity', expression: '(Observation.value as Quantity)', target: [], base: [] },
    ] as unknown as SearchParameterModel[];
    const csv = toCsv([observation], ['_id', 'value-quantity'], schema, parameters);
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header).toBe('ID,Value Quantity');
    expect(row).toMatch(/^o,72\s?kg$/);
  });

  it("writes a backbone element column as its values, not as JSON (an Appointment's participants)", () => {
    const appointment: Appointment = {
      resourceType: 'Appointment',
      id: 'ap',
      status: 'booked',
      participant: [
        { actor: { reference: 'Patient/p1', display: 'Wendy Littel' }, status: 'accepted' },
        { id: 'x', actor: { reference: 'Practitioner/a', display: 'Dr. Alice Carter' }, status: 'needs-action' },
      ],
    };
    const schema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Appointment'));
    const [header, row] = toCsv([appointment], ['participant'], schema).trimEnd().split('\r\n');
    expect(header).toBe('Participant');
    expect(row).toBe('"Wendy Littel · accepted, Dr. Alice Carter · needs-action"');
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

  it('give a choice column one parameter per type, leaving out those that reach other elements too', () => {
    const parameter = (code: string, type: string, expression: string) => ({
      code,
      type,
      expression,
      target: [],
      base: [],
    });
    const parameters = [
      parameter(
        'combo-value-quantity',
        'quantity',
        '(Observation.value as Quantity) | (Observation.component.value as Quantity)',
      ),
      parameter('value-concept', 'token', '(Observation.value as CodeableConcept)'),
      parameter('value-quantity', 'quantity', '(Observation.value as Quantity) | (Observation.value as SampledData)'),
      parameter('code-value-quantity', 'composite', 'Observation'),
      parameter('subject', 'reference', 'Observation.subject'),
      parameter('patient', 'reference', 'Observation.subject.where(resolve() is Patient)'),
      parameter('valueset-ish', 'token', 'Observation.valueSetting'),
    ] as unknown as SearchParameterModel[];
    const schema = {
      type: 'Observation',
      elements: new Map([['value[x]', { types: ['Quantity', 'CodeableConcept', 'string', 'SampledData'] }]]),
    } as unknown as TypeSchema;
    expect(columnSearchParameters('value[x]', schema, parameters).map((p) => p.code)).toEqual([
      'value-concept',
      'value-quantity',
    ]);
    // A parameter named like the field is the column's only one.
    expect(columnSearchParameters('subject', schema, parameters).map((p) => p.code)).toEqual(['subject']);
  });
});
