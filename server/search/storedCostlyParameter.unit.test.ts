import type { SearchParameter } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { extractIndexRows, maxCompositeRowsPerItem } from './indexRows';
import { SearchParameterRegistry } from './searchParameterRegistry';

const string = (code: string, expression: string, url = `http://example.org/sp/${code}`): SearchParameter =>
  ({
    resourceType: 'SearchParameter',
    status: 'active',
    name: code,
    url,
    code,
    base: ['Patient'],
    type: 'string',
    expression,
  }) as SearchParameter;

describe("a project's SearchParameter whose expression is refused on write", () => {
  it('stays known but indexes nothing when it was stored before the rule (loaded from the database)', () => {
    const registry = new SearchParameterRegistry([string('family', 'Patient.name.family')]);
    // select() is refused on write (each one can double its collection); this one would index "Smith".
    const refused = 'Patient.name.family.select($this)';
    registry.replaceProjectParameters('p1', [{ ...string('selected', refused), id: 'sp1' }]);
    registry.putProjectParameter('p2', { ...string('selected', refused), id: 'sp2' });
    const patient = { resourceType: 'Patient', id: 'x', name: [{ family: 'Smith' }] };
    for (const project of ['p1', 'p2']) {
      const parameters = registry.forProject(project);
      expect(parameters.get('Patient', 'selected')).toBeDefined();
      const rows = extractIndexRows(patient, parameters.forType('Patient'));
      expect(rows.string.map((row) => row.code)).toEqual(['family']);
    }
  });

  it("base definitions are not checked (they are the server's own)", () => {
    const registry = new SearchParameterRegistry([string('selected', 'Patient.name.family.select($this)')]);
    const rows = extractIndexRows(
      { resourceType: 'Patient', name: [{ family: 'Smith' }] },
      registry.forType('Patient'),
    );
    expect(rows.string.map((row) => row.value)).toEqual(['Smith']);
  });
});

describe('composite rows of one item', () => {
  it(`stop at ${maxCompositeRowsPerItem}: components of many values each would give their product`, () => {
    const base = [string('given', 'Patient.name.given'), string('family', 'Patient.name.family')];
    const registry = new SearchParameterRegistry(base);
    const component = (code: string) => ({
      definition: `http://example.org/sp/${code}`,
      expression: 'name.given',
    });
    registry.putProjectParameter('p', {
      ...string('pairs', 'Patient'),
      id: 'sp',
      type: 'composite',
      component: [component('given'), component('given'), component('given')],
    } as SearchParameter);
    // 100 given names: 10^6 rows of three components each (four would be 10^8).
    const patient = {
      resourceType: 'Patient',
      id: 'x',
      name: [{ family: 'Smith', given: Array.from({ length: 100 }, (_, i) => `g${i}`) }],
    };
    const parameters = registry.forProject('p');
    const rows = extractIndexRows(patient, parameters.forType('Patient'), (url) => parameters.typeOfUrl(url));
    expect(rows.composite).toHaveLength(0);
    expect(rows.string.filter((row) => row.code === 'given')).toHaveLength(100);
  });
});
