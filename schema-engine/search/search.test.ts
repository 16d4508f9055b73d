import type { Observation, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { formatSearchQuery, Operator } from '../../data-provider/search';
import { SchemaLoader } from '../loading/schemaLoader';
import { recordedSource } from '../test-support/recordedDefinitions';
import { DATE_HELPERS, dateHelperFilters } from './dateHelpers';
import {
  filterOperatorsFor,
  isFilterableType,
  OPERATOR_LABELS,
  unknownSearchParameterTypeMessage,
} from './filterOperators';
import { columnValues, searchColumn, searchParameterPaths } from './searchColumns';

describe('filter operators per search parameter type (app-spec §5)', () => {
  it('offers the operators of each type', () => {
    expect(filterOperatorsFor('string')).toEqual([Operator.EQUALS, Operator.NOT, Operator.CONTAINS, Operator.EXACT]);
    expect(filterOperatorsFor('token')).toEqual([Operator.EQUALS, Operator.NOT]);
    expect(filterOperatorsFor('reference')).toEqual([Operator.EQUALS, Operator.NOT]);
    const comparisons = ['eq', 'ne', 'gt', 'lt', 'ge', 'le'];
    expect(filterOperatorsFor('number')).toEqual(comparisons);
    expect(filterOperatorsFor('quantity')).toEqual(comparisons);
    expect(filterOperatorsFor('date')).toEqual([...comparisons, 'sa', 'eb', 'ap']);
    expect(filterOperatorsFor('dateTime')).toEqual([...comparisons, 'sa', 'eb', 'ap']);
    for (const operator of filterOperatorsFor('date')) expect(OPERATOR_LABELS[operator]).toBeTruthy();
  });

  it('has none for composite, special and unknown types, with the column-menu message', () => {
    expect(filterOperatorsFor('composite')).toEqual([]);
    expect(filterOperatorsFor(undefined)).toEqual([]);
    expect(isFilterableType('special')).toBe(false);
    expect(unknownSearchParameterTypeMessage('composite')).toBe('Unknown search parameter type: composite');
  });
});

describe('date helpers', () => {
  // 2024-03-15 10:00 local time; months and a leap year make the edges interesting.
  const now = new Date(2024, 2, 15, 10, 0, 0);
  const range = (key: (typeof DATE_HELPERS)[number]['key']) =>
    dateHelperFilters('date', key, now).map((f) => `${f.operator}${f.value}`);

  it('turn each shortcut into a ge/lt pair of concrete dates', () => {
    expect(DATE_HELPERS.map((h) => h.label)).toEqual([
      'Yesterday',
      'Today',
      'Tomorrow',
      'Last month',
      'This month',
      'Next month',
      'Year to date',
    ]);
    expect(range('yesterday')).toEqual(['ge2024-03-14', 'lt2024-03-15']);
    expect(range('today')).toEqual(['ge2024-03-15', 'lt2024-03-16']);
    expect(range('tomorrow')).toEqual(['ge2024-03-16', 'lt2024-03-17']);
    expect(range('lastMonth')).toEqual(['ge2024-02-01', 'lt2024-03-01']);
    expect(range('thisMonth')).toEqual(['ge2024-03-01', 'lt2024-04-01']);
    expect(range('nextMonth')).toEqual(['ge2024-04-01', 'lt2024-05-01']);
    expect(range('yearToDate')).toEqual(['ge2024-01-01', 'lt2024-03-16']);
  });

  it('cross year ends and format as search queries through the shared search model', () => {
    const newYear = new Date(2024, 0, 1, 0, 30);
    expect(dateHelperFilters('birthdate', 'yesterday', newYear).map((f) => f.value)).toEqual([
      '2023-12-31',
      '2024-01-01',
    ]);
    expect(dateHelperFilters('birthdate', 'lastMonth', newYear).map((f) => f.value)).toEqual([
      '2023-12-01',
      '2024-01-01',
    ]);
    const query = formatSearchQuery({ resourceType: 'Patient', filters: dateHelperFilters('birthdate', 'today', now) });
    expect(query).toContain('birthdate=ge2024-03-15');
    expect(query).toContain('birthdate=lt2024-03-16');
  });
});

describe('search columns', () => {
  const loader = new SchemaLoader(recordedSource());

  it('finds the elements a search parameter expression selects on one type', () => {
    expect(searchParameterPaths('Patient.name | Practitioner.name', 'Patient')).toEqual(['name']);
    expect(
      searchParameterPaths('(Observation.value as Quantity) | (Observation.value as SampledData)', 'Observation'),
    ).toEqual(['valueQuantity', 'valueSampledData']);
    expect(searchParameterPaths("Patient.telecom.where(system='email')", 'Patient')).toEqual(['telecom']);
    expect(searchParameterPaths('Observation.subject.where(resolve() is Patient)', 'Observation')).toEqual(['subject']);
    expect(searchParameterPaths(undefined, 'Patient')).toEqual([]);
  });

  it('shows values of a parameter column, a built-in column and an element column', async () => {
    const schema = await loader.loadType('Patient');
    const parameters = await loader.loadSearchParameters('Patient');
    const patient: Patient = {
      resourceType: 'Patient',
      id: 'p1',
      meta: { versionId: '2', lastUpdated: '2024-01-01T00:00:00Z' },
      name: [{ family: 'Lee' }, { family: 'Li' }],
      birthDate: '1980-01-01',
    };
    const birthdate = searchColumn(schema, 'birthdate', parameters);
    expect(birthdate.paths).toEqual(['birthDate']);
    expect(birthdate.elements[0].types).toEqual(['date']);
    expect(birthdate.filterMessage).toBeUndefined();
    expect(columnValues(patient, birthdate)).toEqual(['1980-01-01']);
    expect(columnValues(patient, searchColumn(schema, 'name', parameters))).toEqual([
      { family: 'Lee' },
      { family: 'Li' },
    ]);
    expect(columnValues(patient, searchColumn(schema, '_lastUpdated', parameters))).toEqual(['2024-01-01T00:00:00Z']);
    expect(columnValues(patient, searchColumn(schema, 'meta.versionId', parameters))).toEqual(['2']);
    expect(columnValues(patient, searchColumn(schema, 'name.family', parameters))).toEqual(['Lee', 'Li']);
  });

  it('resolves choice columns and flags parameters that cannot be filtered', async () => {
    const schema = await loader.loadType('Observation');
    const parameters = await loader.loadSearchParameters('Observation');
    const observation: Observation = {
      resourceType: 'Observation',
      status: 'final',
      code: {},
      valueQuantity: { value: 5 },
    };
    const quantity = searchColumn(schema, 'value-quantity', parameters);
    expect(quantity.paths).toContain('valueQuantity');
    expect(quantity.elements.map((e) => e.path)).toContain('value[x]');
    expect(columnValues(observation, quantity)).toEqual([{ value: 5 }]);
    const composite = searchColumn(schema, 'code-value-quantity', parameters);
    expect(composite.filterMessage).toBe('Unknown search parameter type: composite');
  });
});
