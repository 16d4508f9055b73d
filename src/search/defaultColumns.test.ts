import { describe, expect, it } from 'vitest';
import { buildTypeSchema } from '../../schema-engine/model/buildTypeSchema';
import { recordedDefinition } from '../../schema-engine/test-support/recordedDefinitions';
import { defaultColumns } from './defaultColumns';

const schemaOf = (type: string) =>
  buildTypeSchema(recordedDefinition(`http://hl7.org/fhir/StructureDefinition/${type}`));

describe('default columns of a list', () => {
  it('list patients by name, birth date and gender, not by UUID', () => {
    expect(defaultColumns(schemaOf('Patient'))).toEqual(['name', 'active', 'birthDate', 'gender', '_lastUpdated']);
  });

  it('give clinical types their code, status, subject and date', () => {
    expect(defaultColumns(schemaOf('Observation'))).toEqual([
      'code',
      'status',
      'subject',
      'effective[x]',
      '_lastUpdated',
    ]);
    expect(defaultColumns(schemaOf('Task'))).toEqual([
      'description',
      'code',
      'status',
      'for',
      'authoredOn',
      '_lastUpdated',
    ]);
  });

  it('show who an appointment is with: its participants, between its status and its start', () => {
    expect(defaultColumns(schemaOf('Appointment'))).toEqual([
      'description',
      'status',
      'participant',
      'start',
      '_lastUpdated',
    ]);
  });

  it('name a Questionnaire (a canonical resource) by its title, not its machine name', () => {
    const columns = defaultColumns(schemaOf('Questionnaire'));
    expect(columns[0]).toBe('title');
    expect(columns).not.toContain('name');
    expect(defaultColumns(schemaOf('PlanDefinition'))[0]).toBe('title');
    expect(defaultColumns(schemaOf('Organization'))[0]).toBe('name');
  });

  it('fall back to ID and Last Updated while the schema loads or for a type with nothing readable', () => {
    expect(defaultColumns(undefined)).toEqual(['_id', '_lastUpdated']);
    expect(defaultColumns(schemaOf('Binary'))).toEqual(['_id', '_lastUpdated']);
  });
});
