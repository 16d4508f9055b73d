import { beforeAll, describe, expect, it } from 'vitest';
import type { Observation, Patient } from '@medplum/fhirtypes';
import type { SearchParameterModel } from '../resources/typeSchema';
import { buildTypeSchema } from '../../schema-engine/model/buildTypeSchema';
import { recordedDefinition } from '../../schema-engine/test-support/recordedDefinitions';
import { columnFhirpathExpression, columnsNeedFhirpath, loadColumnFhirpath } from './fhirpathColumns';
import { codeKey, columnDataFormatter, columnFormatter } from './searchColumns';

const COLOUR = 'https://hearth.example/fhir/StructureDefinition/favourite-colour';
const SEEN = 'https://hearth.example/fhir/StructureDefinition/seen-by';
const LAST_CONTACT = 'https://hearth.example/fhir/StructureDefinition/last-contact';

const parameter = (code: string, type: string, expression: string) =>
  ({ code, type, expression, target: [], base: ['Patient'] }) as unknown as SearchParameterModel;

const patientSchema = buildTypeSchema(recordedDefinition('http://hl7.org/fhir/StructureDefinition/Patient'));

const patient: Patient = {
  resourceType: 'Patient',
  id: 'teal-1',
  birthDate: '1990-04-05',
  telecom: [
    { system: 'email', value: 'ada@example.org' },
    { system: 'phone', value: '555-0100' },
  ],
  extension: [
    { url: COLOUR, valueString: 'teal' },
    { url: SEEN, valueCoding: { system: 'http://hearth.example/seen', code: 'walk-in', display: 'Walk-in' } },
    { url: 'https://hearth.example/other', valueString: 'not this one' },
  ],
};

beforeAll(() => loadColumnFhirpath());

describe('a column over an extension search parameter', () => {
  it.each([
    `Patient.extension('${COLOUR}').value`,
    `Patient.extension('${COLOUR}').value.ofType(string)`,
    `Patient.extension('${COLOUR}').valueString`,
    `Patient.extension.where(url='${COLOUR}').value`,
    `Patient.extension.where(url = '${COLOUR}').valueString | Practitioner.extension('${COLOUR}').value`,
  ])('shows the string value of %s', (expression) => {
    const parameters = [parameter('favourite-colour', 'string', expression)];
    expect(columnFormatter('favourite-colour', patientSchema, parameters)(patient)).toBe('teal');
    expect(columnDataFormatter('favourite-colour', patientSchema, parameters)(patient)).toBe('teal');
    expect(columnFormatter('favourite-colour', patientSchema, parameters)({ resourceType: 'Patient' })).toBe('');
  });

  it('shows a coded extension as a coding, and a code without a display by its looked-up name', () => {
    const parameters = [parameter('seen-by', 'token', `Patient.extension('${SEEN}').value`)];
    expect(columnFormatter('seen-by', patientSchema, parameters)(patient)).toMatch(/^Walk-in/);
    const bare: Patient = {
      resourceType: 'Patient',
      extension: [
        { url: SEEN, valueCodeableConcept: { coding: [{ system: 'http://hearth.example/seen', code: 'gp' }] } },
      ],
    };
    const names = {
      references: new Map<string, string>(),
      codes: new Map([[codeKey('http://hearth.example/seen', 'gp'), 'Referred by GP']]),
    };
    expect(columnFormatter('seen-by', patientSchema, parameters, names)(bare)).toBe('Referred by GP');
    // An export writes what the record stores, not a looked-up name.
    expect(columnDataFormatter('seen-by', patientSchema, parameters)(bare)).not.toContain('Referred by GP');
    expect(columnDataFormatter('seen-by', patientSchema, parameters)(bare)).toContain('gp');
  });

  it('formats a value[x] by the type each record chose: dateTime, date, Period, Quantity', () => {
    const parameters = [parameter('last-contact', 'date', `Patient.extension('${LAST_CONTACT}').value`)];
    const withValue = (value: Record<string, unknown>): Patient => ({
      resourceType: 'Patient',
      extension: [{ url: LAST_CONTACT, ...value }],
    });
    const display = columnFormatter('last-contact', patientSchema, parameters);
    const data = columnDataFormatter('last-contact', patientSchema, parameters);

    const dateTime = withValue({ valueDateTime: '2026-11-03T11:00:00Z' });
    expect(display(dateTime)).not.toBe('');
    expect(display(dateTime)).not.toBe('2026-11-03T11:00:00Z'); // the table shows the house date style
    expect(data(dateTime)).toBe('2026-11-03T11:00:00Z');

    expect(data(withValue({ valueDate: '2026-11-03' }))).toBe('2026-11-03');
    expect(data(withValue({ valuePeriod: { start: '2026-01-01', end: '2026-02-01T09:30:00+01:00' } }))).toBe(
      '2026-01-01/2026-02-01T09:30:00+01:00',
    );
    expect(display(withValue({ valueQuantity: { value: 3, unit: 'visits' } }))).toMatch(/^3\s?visits$/);
  });

  it('shows only what a where() filter selects (a phone parameter shows no e-mail address)', () => {
    const parameters = [parameter('phone', 'token', "Patient.telecom.where(system='phone')")];
    expect(columnFormatter('phone', patientSchema, parameters)(patient)).toBe('555-0100');
  });

  it('does not change the record it reads', () => {
    const copy = structuredClone(patient);
    const parameters = [parameter('favourite-colour', 'string', `Patient.extension('${COLOUR}').value`)];
    columnFormatter('favourite-colour', patientSchema, parameters)(patient);
    expect(patient).toEqual(copy);
  });

  it('leaves plain paths, as-types and resolve() to the path walker', () => {
    const observation = [
      parameter('value-quantity', 'quantity', '(Observation.value as Quantity) | (Observation.value as SampledData)'),
      parameter('patient', 'reference', 'Observation.subject.where(resolve() is Patient)'),
      parameter('code', 'token', 'Observation.code'),
      parameter('status-ish', 'token', 'Observation.value.as(CodeableConcept)'),
    ];
    for (const { code } of observation)
      expect(columnFhirpathExpression(code, 'Observation', observation)).toBeUndefined();
    const mixed = [parameter('colour', 'string', `Patient.birthDate | Practitioner.extension('${COLOUR}').value`)];
    expect(columnFhirpathExpression('colour', 'Patient', mixed)).toBeUndefined();
    expect(columnFhirpathExpression('colour', 'Practitioner', mixed)).toBe(`Practitioner.extension('${COLOUR}').value`);
    expect(columnsNeedFhirpath(['_id', 'colour'], 'Practitioner', mixed)).toBe(true);
    expect(columnsNeedFhirpath(['_id', 'colour'], 'Patient', mixed)).toBe(false);

    // The walker still types its values: the patient reference of an Observation.
    const observationSchema = buildTypeSchema(
      recordedDefinition('http://hl7.org/fhir/StructureDefinition/Observation'),
    );
    const reading: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Weight' },
      subject: { reference: 'Patient/p1', display: 'Wendy Littel' },
    };
    expect(columnFormatter('patient', observationSchema, observation)(reading)).toBe('Wendy Littel');
  });

  it('shows nothing, and throws nothing, for an expression the engine cannot parse', () => {
    const parameters = [parameter('broken', 'string', "Patient.extension('unterminated).value")];
    expect(columnFormatter('broken', patientSchema, parameters)(patient)).toBe('');
  });
});
