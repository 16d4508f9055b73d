import { describe, expect, it } from 'vitest';
import { expressionPaths, hiddenFieldsReadBy } from './searchExpressionFields';

describe('fields read by search expressions', () => {
  it('follows plain paths, unions, casts and filters', () => {
    expect(expressionPaths('Encounter.reasonCode', 'Encounter')).toEqual([['reasonCode']]);
    expect(expressionPaths('Observation.code | Observation.component.code', 'Observation')).toEqual([
      ['code'],
      ['component', 'code'],
    ]);
    expect(expressionPaths('(Observation.value as Quantity)', 'Observation')).toEqual([['value']]);
    expect(
      expressionPaths('Observation.value.as(Quantity) | Observation.value.as(SampledData)', 'Observation'),
    ).toEqual([['value'], ['value']]);
    expect(expressionPaths("Patient.name.where(use='official').given", 'Patient')).toEqual([['name', 'given']]);
    expect(expressionPaths("Patient.extension('http://x|y').value", 'Patient')).toEqual([['extension', 'value']]);
    expect(expressionPaths('Encounter.diagnosis.condition.resolve().code', 'Encounter')).toEqual([
      ['diagnosis', 'condition'],
    ]);
  });

  it('a parameter reads a hidden field when either path contains the other', () => {
    expect(hiddenFieldsReadBy('Encounter.reasonCode', 'Encounter', ['reasonCode', 'diagnosis'])).toEqual([
      'reasonCode',
    ]);
    expect(hiddenFieldsReadBy('Encounter.diagnosis.condition', 'Encounter', ['reasonCode', 'diagnosis'])).toEqual([
      'diagnosis',
    ]);
    expect(hiddenFieldsReadBy('Patient.identifier', 'Patient', ['identifier.value'])).toEqual(['identifier.value']);
    expect(hiddenFieldsReadBy("Patient.telecom.where(system='phone')", 'Patient', ['telecom.value'])).toEqual([
      'telecom.value',
    ]);
    expect(hiddenFieldsReadBy('(Observation.value as Quantity)', 'Observation', ['valueQuantity'])).toEqual([
      'valueQuantity',
    ]);
    // Other fields stay searchable.
    expect(hiddenFieldsReadBy('Encounter.status', 'Encounter', ['reasonCode', 'diagnosis'])).toEqual([]);
    expect(hiddenFieldsReadBy('Patient.name', 'Patient', ['birthDate', 'identifier.value'])).toEqual([]);
    expect(hiddenFieldsReadBy('Observation.valueString', 'Observation', ['value'])).toEqual(['value']);
    expect(hiddenFieldsReadBy('Observation.code', 'Observation', ['component.code'])).toEqual([]);
  });
});
