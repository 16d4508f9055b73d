import { describe, expect, it } from 'vitest';
import type { Appointment, Encounter, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { csvCell, EXPORT_LIMIT, exportFields, prepareCsvColumns, toCsv, toTransactionBundle } from './exportRecords';
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
    expect(lines[1]).toBe('e,"Mrs. Estrella Daugherty, Mrs. Estrella Friesen [maiden]"');
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
    expect(header).toBe('ID,Participant');
    expect(row).toBe('ap,"Wendy Littel · accepted, Dr. Alice Carter · needs-action"');
  });

  it('writes dates, date-times and instants as stored (ISO 8601), not in the house display style', () => {
    const schema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Observation'));
    const observation: Observation = {
      resourceType: 'Observation',
      id: 'obs-1',
      meta: { lastUpdated: '2026-11-03T11:05:07.123Z' },
      status: 'final',
      code: { text: 'Weight' },
      effectiveDateTime: '2026-11-03T11:00:00Z',
      issued: '2026-11-03T11:04:00.000+01:00',
    };
    const partial: Observation = {
      resourceType: 'Observation',
      id: 'obs-2',
      status: 'final',
      code: { text: 'Weight' },
      effectivePeriod: { start: '2026-11', end: '2026-12-01' },
    };
    const openEnded: Observation = { ...partial, id: 'obs-3', effectivePeriod: { start: '2026-11-03T11:00:00Z' } };
    const csv = toCsv([observation, partial, openEnded], ['effective[x]', 'issued', '_lastUpdated'], schema);
    expect(csv.trimEnd().split('\r\n')).toEqual([
      'ID,Effective,Issued,Last Updated',
      'obs-1,2026-11-03T11:00:00Z,2026-11-03T11:04:00.000+01:00,2026-11-03T11:05:07.123Z',
      'obs-2,2026-11/2026-12-01,,',
      'obs-3,2026-11-03T11:00:00Z/..,,',
    ]);
    const patientSchema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Patient'));
    const born: Patient = { resourceType: 'Patient', id: 'p', birthDate: '1990-04-05' };
    expect(toCsv([born], ['birthDate'], patientSchema)).toBe('ID,Birth Date\r\np,1990-04-05\r\n');
  });

  it('writes the dates inside a backbone element as stored (an Encounter participant’s period)', () => {
    const schema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Encounter'));
    const encounter: Encounter = {
      resourceType: 'Encounter',
      id: 'enc',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      participant: [
        {
          individual: { reference: 'Practitioner/a', display: 'Dr. Alice Carter' },
          period: { start: '2026-11-03T11:00:00Z', end: '2026-11-03T11:30:00Z' },
        },
      ],
    };
    const [, row] = toCsv([encounter], ['participant'], schema).trimEnd().split('\r\n');
    expect(row).toBe('enc,Dr. Alice Carter · 2026-11-03T11:00:00Z/2026-11-03T11:30:00Z');
  });

  it('puts id first once, keeps the chosen order, and adds resourceType only when types are mixed', () => {
    expect(exportFields(patients, ['gender', '_id', 'name'])).toEqual(['_id', 'gender', 'name']);
    expect(exportFields(patients, ['name', 'gender'])).toEqual(['_id', 'name', 'gender']);
    expect(exportFields(patients, [])).toEqual(['_id']);
    const mixed: Resource[] = [...patients, { resourceType: 'Practitioner', id: 'dr' }];
    expect(exportFields(mixed, ['name'])).toEqual(['_id', 'resourceType', 'name']);
    const csv = toCsv(mixed, ['name', '_id'], undefined);
    expect(csv.split('\r\n').slice(0, 2)).toEqual(['ID,Resource Type,Name', 'a,Patient,']);
    expect(csv.split('\r\n')[3]).toBe('dr,Practitioner,');
  });

  it('quotes per RFC 4180: commas, double quotes, CR and LF; nothing else', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('line one\r\nline two')).toBe('"line one\r\nline two"');
    expect(csvCell('')).toBe('');
    const note: Patient = { resourceType: 'Patient', id: 'q', gender: 'other' };
    const csv = toCsv([note], ['gender'], undefined);
    expect(csv).toBe('ID,Gender\r\nq,other\r\n');
  });

  it('defuses formula injection (OWASP): a cell starting with =, +, -, @, tab or CR gets a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe('"\'=HYPERLINK(""http://evil.example"",""x"")"');
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(csvCell('a=b')).toBe('a=b');
    const attacker: Patient = {
      resourceType: 'Patient',
      id: 'x',
      name: [{ family: "=cmd|' /C calc'!A0", given: [] }],
    };
    const [, row] = toCsv([attacker], ['name'], undefined).trimEnd().split('\r\n');
    expect(row.startsWith('x,')).toBe(true);
    expect(row.slice(2).startsWith("'=") || row.slice(2).startsWith('"\'=')).toBe(true);
  });

  it('fills an extension column through FHIRPath once the columns are prepared', async () => {
    const schema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Patient'));
    const url = 'https://hearth.example/fhir/StructureDefinition/favourite-colour';
    const parameters = [
      {
        code: 'favourite-colour',
        type: 'string',
        expression: `Patient.extension('${url}').value`,
        target: [],
        base: [],
      },
    ] as unknown as SearchParameterModel[];
    const teal: Patient = {
      resourceType: 'Patient',
      id: 't',
      birthDate: '2001-02-03',
      name: [{ family: 'Blue' }],
      extension: [{ url, valueString: 'teal' }],
    };
    const fields = ['name', 'birthDate', 'favourite-colour'];
    await prepareCsvColumns(fields, schema, parameters);
    expect(toCsv([teal], fields, schema, parameters)).toBe(
      'ID,Name,Birth Date,Favourite Colour\r\nt,Blue,2001-02-03,teal\r\n',
    );
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
