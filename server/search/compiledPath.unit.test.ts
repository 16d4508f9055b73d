import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { Bundle, SearchParameter } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import { compilePath } from './compiledPath';
import { extractIndexRows } from './indexRows';
import { compileExpression, SearchParameterRegistry, type SearchParamDefinition } from './searchParameterRegistry';

const root = join(fileURLToPath(import.meta.url), '..', '..', '..');

type Json = Record<string, unknown>;
type Expression = string | { base: string; expression: string };

const fhirpathOnly = new Map<string, (input: unknown) => unknown[]>();
/** The expression evaluated by fhirpath.js alone (what every write did before compiledPath.ts). */
function slow(expression: Expression): (input: unknown) => unknown[] {
  const key = JSON.stringify(expression);
  let evaluate = fhirpathOnly.get(key);
  if (!evaluate) {
    evaluate = compileExpression(expression, { fastPath: false });
    fhirpathOnly.set(key, evaluate);
  }
  return evaluate;
}

/** Its result, or the error it throws (extractIndexRows indexes nothing for the parameter then). */
function outcome(evaluate: (input: unknown) => unknown[] | undefined, input: unknown): unknown {
  try {
    return { value: evaluate(input) };
  } catch {
    return { error: true };
  }
}

/** The same parameters with every expression (and composite component) evaluated by fhirpath.js alone. */
function withFhirpathOnly(parameters: readonly SearchParamDefinition[]): SearchParamDefinition[] {
  return parameters.map((parameter) => ({
    ...parameter,
    evaluate: slow(parameter.expression),
    components: parameter.components?.map((component) => ({
      ...component,
      evaluate: slow({ base: component.itemPath, expression: component.expression }),
    })),
  }));
}

function syntheaResources(): Json[] {
  const folders = [join(root, 'tests', 'fixtures', 'synthea'), join(root, '..', 'shared', 'data', 'synthea-r4')];
  const resources: Json[] = [];
  for (const folder of folders.filter((f) => existsSync(f))) {
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.json'))) {
      const bundle = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Bundle;
      for (const entry of bundle.entry ?? []) if (entry.resource) resources.push(entry.resource as unknown as Json);
    }
  }
  return resources;
}

const registry = new SearchParameterRegistry(
  ['search-parameters.json', 'search-parameters-medplum.json', 'search-parameters-uscore.json'].flatMap(
    (file) => readDefinitionBundle(file) as SearchParameter[],
  ),
);
const typeOfUrl = (url: string) => registry.typeOfUrl(url);

describe('compiled search paths on the Synthea resources', () => {
  it('give every resource the same index rows, and every parameter the same values, as fhirpath.js', () => {
    const resources = syntheaResources();
    expect(resources.length).toBeGreaterThan(1000);
    const notCompiled = new Set<string>();
    const leftToFhirpath = new Set<string>();
    let compared = 0;
    for (const resource of resources) {
      const parameters = registry.forType(resource.resourceType as string);
      const rows = extractIndexRows(resource, parameters, typeOfUrl);
      const expectedRows = extractIndexRows(resource, withFhirpathOnly(parameters), typeOfUrl);
      // toEqual only on a difference (for its message): it is slow over 13,000 resources.
      if (!isDeepStrictEqual(rows, expectedRows)) expect(rows).toEqual(expectedRows);
      for (const parameter of parameters) {
        if (!parameter.expression || parameter.type === 'special') continue;
        for (const component of parameter.components ?? []) {
          const expression = { base: component.itemPath, expression: component.expression };
          if (!compilePath(expression)) notCompiled.add(JSON.stringify(expression));
        }
        const fast = compilePath(parameter.expression);
        if (!fast) {
          notCompiled.add(parameter.expression);
          continue;
        }
        const result = outcome(fast, resource);
        if ((result as { value?: unknown }).value === undefined && !(result as { error?: true }).error) {
          leftToFhirpath.add(parameter.expression);
          continue;
        }
        compared++;
        const expected = outcome(slow(parameter.expression), resource);
        if (!isDeepStrictEqual(result, expected)) {
          expect(result, `${resource.resourceType}/${resource.id as string} ${parameter.code}`).toEqual(expected);
        }
      }
    }
    expect(compared).toBeGreaterThan(resources.length * 10);
    // The only base parameter (or composite component) of a Synthea type the walker does not
    // compile: a boolean expression.
    expect([...notCompiled]).toEqual(['Patient.deceased.exists() and Patient.deceased != false']);
    // Synthea's data is all of the common kind: no resource was handed back to fhirpath.js.
    expect([...leftToFhirpath]).toEqual([]);
  }, 120_000);
});

/** Compiles, evaluates without handing back, and gives fhirpath.js's own result (or error). */
function expectSame(expression: Expression, input: Json): unknown[] | undefined {
  const fast = compilePath(expression);
  expect(fast, 'compiled').toBeDefined();
  const result = outcome(fast as (input: unknown) => unknown[] | undefined, input);
  expect(result, 'not handed back to fhirpath.js').not.toEqual({ value: undefined });
  expect(result).toEqual(outcome(slow(expression), input));
  return (result as { value?: unknown[] }).value;
}

/** Compiles, but hands this input back; the registry's evaluator still gives fhirpath.js's result. */
function expectHandedBack(expression: string, input: Json): void {
  const fast = compilePath(expression);
  expect(fast, 'compiled').toBeDefined();
  expect((fast as (input: unknown) => unknown[] | undefined)(input)).toBeUndefined();
  expect(outcome(compileExpression(expression), input)).toEqual(outcome(slow(expression), input));
}

const patient: Json = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { lastUpdated: '2024-01-02T03:04:05Z', tag: [{ system: 's', code: 'a' }, { code: 'b' }] },
  name: [
    { family: 'Chalmers', given: ['Peter', 'James'] },
    { family: 'Windsor', given: ['Jim'] },
  ],
  telecom: [
    { system: 'phone', value: '555' },
    { system: 'email', value: 'p@example.org' },
    { system: 'email', value: 'q@example.org' },
  ],
  gender: 'male',
  birthDate: '1974-12-25',
  deceasedDateTime: '2020-01-01',
  managingOrganization: { reference: 'Organization/o1' },
  generalPractitioner: [{ reference: 'Practitioner/d1' }, { reference: 'Organization/o1' }, { display: 'no ref' }],
};

describe('compilePath forms', () => {
  it('walks paths over objects and arrays, flattening arrays', () => {
    expect(expectSame('Patient.name.given', patient)).toEqual(['Peter', 'James', 'Jim']);
    expect(expectSame('Patient.name.family', patient)).toEqual(['Chalmers', 'Windsor']);
    expect(expectSame('Patient.gender', patient)).toEqual(['male']);
    expect(expectSame('Patient.address.city', patient)).toEqual([]);
    expect(expectSame('Patient.name', { ...patient, name: [] })).toEqual([]);
    expect(expectSame('Patient.gender', { ...patient, gender: null })).toEqual([]);
  });

  it('reads an element named like a FHIRPath operator where the grammar allows it (contains)', () => {
    const valueSet = {
      resourceType: 'ValueSet',
      expansion: { contains: [{ code: 'a', contains: [{ code: 'b' }] }, { code: 'c' }] },
      compose: { include: [{ concept: [{ code: 'd' }] }] },
    };
    expect(expectSame('ValueSet.expansion.contains.code | ValueSet.compose.include.concept.code', valueSet)).toEqual([
      'a',
      'c',
      'd',
    ]);
  });

  it('tests the type at the root: the resource type, Resource and DomainResource', () => {
    expect(expectSame('Patient.id', patient)).toEqual(['p1']);
    expect(expectSame('Resource.id', patient)).toEqual(['p1']);
    expect(expectSame('DomainResource.meta.lastUpdated', patient)).toEqual(['2024-01-02T03:04:05Z']);
    expect(expectSame('Resource.meta.tag', patient)).toHaveLength(2);
    expect(expectSame('Observation.code', patient)).toEqual([]);
    // A type outside fhirpath.js's R4 model (Medplum's) is no Resource to it.
    expect(expectSame('Resource.id', { resourceType: 'Login', id: 'l1' })).toEqual([]);
    expect(expectSame('Login.id', { resourceType: 'Login', id: 'l1' })).toEqual(['l1']);
  });

  it('resolves choice elements with the R4 model', () => {
    const quantity: Json = { resourceType: 'Observation', valueQuantity: { value: 5.4, unit: 'mmol/L' } };
    const text: Json = { resourceType: 'Observation', valueString: 'positive' };
    const concept: Json = { resourceType: 'Observation', valueCodeableConcept: { text: 'High' } };
    expect(expectSame('Observation.value', quantity)).toEqual([{ value: 5.4, unit: 'mmol/L' }]);
    expect(expectSame('Observation.value', text)).toEqual(['positive']);
    expect(expectSame('(Observation.value as Quantity)', quantity)).toHaveLength(1);
    expect(expectSame('(Observation.value as Quantity)', text)).toEqual([]);
    expect(expectSame('(Observation.value as string) | (Observation.value as CodeableConcept).text', concept)).toEqual([
      'High',
    ]);
    expect(expectSame('(Observation.value as string) | (Observation.value as CodeableConcept).text', text)).toEqual([
      'positive',
    ]);
    expect(expectSame('Observation.value as Quantity', quantity)).toHaveLength(1);
    // The element's own name is not a choice: `value` without a suffix is not read.
    expect(expectSame('Observation.value', { resourceType: 'Observation', value: 3 })).toEqual([]);
    // Age is a Quantity; as(Age) does not take a plain Quantity.
    const onsetAge: Json = { resourceType: 'Condition', onsetAge: { value: 40, code: 'a' } };
    expect(expectSame('Condition.onset.as(Age) | Condition.onset.as(Range)', onsetAge)).toHaveLength(1);
    expect(expectSame('(Condition.onset as Quantity)', onsetAge)).toHaveLength(1);
    expect(expectSame('(Patient.deceased as dateTime)', patient)).toEqual(['2020-01-01']);
    expect(expectSame('(Patient.deceased as dateTime)', { resourceType: 'Patient', deceasedBoolean: true })).toEqual(
      [],
    );
  });

  it("raises fhirpath.js's singleton error for as on several items, not for ofType", () => {
    const pressure = {
      resourceType: 'Observation',
      component: [{ valueQuantity: { value: 120 } }, { valueQuantity: { value: 80 } }],
    };
    const fast = compilePath('(Observation.component.value as Quantity)');
    expect(() => fast?.(pressure)).toThrow(/singleton/);
    expect(() => slow('(Observation.component.value as Quantity)')(pressure)).toThrow(/singleton/);
    expectSame('Observation.component.value.as(Quantity)', pressure);
    expect(
      expectSame('(Observation.component.value as Quantity)', { ...pressure, component: [pressure.component[0]] }),
    ).toEqual([{ value: 120 }]);
    const group: Json = {
      resourceType: 'Group',
      characteristic: [
        { valueReference: { reference: 'Patient/1' } },
        { valueBoolean: true },
        { valueReference: { reference: 'Group/2' } },
      ],
    };
    expect(expectSame('(Group.characteristic.value.ofType(Reference))', group)).toHaveLength(2);
  });

  it('filters with where(p = text) and where(p.startsWith(text))', () => {
    expect(expectSame("Patient.telecom.where(system='email')", patient)).toHaveLength(2);
    expect(expectSame("Patient.telecom.where(system = 'fax')", patient)).toEqual([]);
    expect(expectSame("Patient.generalPractitioner.where(reference.startsWith('Organization/'))", patient)).toEqual([
      { reference: 'Organization/o1' },
    ]);
    expect(expectSame("Patient.managingOrganization.where(reference.startsWith('Patient/'))", patient)).toEqual([]);
    const extended: Json = {
      resourceType: 'Patient',
      extension: [
        {
          url: 'http://example.org/race',
          extension: [
            { url: 'ombCategory', valueCoding: { code: '2106-3' } },
            { url: 'text', valueString: 'White' },
          ],
        },
        { url: 'http://example.org/other', valueString: 'x' },
      ],
    };
    expect(
      expectSame("Patient.extension.where(url = 'http://example.org/race').extension.value.code", extended),
    ).toEqual(['2106-3']);
    expect(expectSame("Patient.extension.where(url = 'http://example.org/other').value", extended)).toEqual(['x']);
  });

  it('joins branches with |: the same items as fhirpath.js, which drops repeats, and so the same rows', () => {
    const definition = (expression: string): SearchParamDefinition => ({
      code: 'c',
      type: 'token',
      expression,
      target: [],
      evaluate: compileExpression(expression),
    });
    const distinct = (values: unknown[]) => [...new Set(values.map((v) => JSON.stringify(v)))];
    for (const expression of [
      'Patient.name.given | Patient.name.family',
      "Patient.telecom | Patient.telecom.where(system='email')",
      'Patient.gender | Patient.gender',
    ]) {
      const fast = compilePath(expression)?.(patient) as unknown[];
      expect(distinct(fast)).toEqual(distinct(slow(expression)(patient)));
      const parameter = definition(expression);
      expect(extractIndexRows(patient, [parameter])).toEqual(extractIndexRows(patient, withFhirpathOnly([parameter])));
    }
    expect(compilePath('Patient.gender | Patient.gender')?.(patient)).toEqual(['male', 'male']);
    expect(expectSame('Patient.name.given | Patient.name.family', patient)).toEqual([
      'Peter',
      'James',
      'Jim',
      'Chalmers',
      'Windsor',
    ]);
  });

  it('evaluates composite components from the items of their composite', () => {
    const observation: Json = {
      resourceType: 'Observation',
      code: { coding: [{ code: '85354-9' }] },
      component: [
        { code: { text: 'systolic' }, valueQuantity: { value: 120 } },
        { code: { text: 'diastolic' }, valueQuantity: { value: 80 } },
      ],
    };
    const component = (observation.component as Json[])[0];
    expect(expectSame({ base: 'Observation.component', expression: 'value.as(Quantity)' }, component)).toEqual([
      { value: 120 },
    ]);
    expect(expectSame({ base: 'Observation.component', expression: 'code' }, component)).toEqual([
      { text: 'systolic' },
    ]);
    expect(expectSame({ base: 'Observation', expression: 'value.as(CodeableConcept)' }, component)).toEqual([]);
    // R4's code-value-date says value.as(DateTime): a System type, which no FHIR dateTime is (only Periods match).
    const dated = { resourceType: 'Observation', valueDateTime: '2020-01-01' };
    const period = { resourceType: 'Observation', valuePeriod: { start: '2020-01-01' } };
    const valueDate = { base: 'Observation', expression: 'value.as(DateTime) | value.as(Period)' };
    expect(expectSame(valueDate, dated)).toEqual([]);
    expect(expectSame(valueDate, period)).toEqual([{ start: '2020-01-01' }]);
    expect(expectSame({ base: 'Observation', expression: 'code' }, observation)).toHaveLength(1);
  });
});

describe('compilePath fallbacks', () => {
  it('does not compile forms outside the supported ones', () => {
    for (const expression of [
      'Patient.deceased.exists() and Patient.deceased != false',
      'Bundle.entry[0].resource',
      'ProjectMembership.profile.resolve().resourceType',
      '(Observation.value as FHIR.Quantity)',
      '(Observation.value as NoSuchType)',
      'Observation.value.ofType(String)',
      'Patient.extension.where(value = 1)',
      "Patient.name.where(given.exists() and family = 'x')",
      "Patient.extension('http://example.org').value",
      '%resource.id',
      'Patient.name.first()',
      'Patient.constructor',
      'Patient.text.div',
      "Patient.telecom.where(toString = 'x')",
    ]) {
      expect(compilePath(expression), expression).toBeUndefined();
      expect(outcome(compileExpression(expression), patient)).toEqual(outcome(slow(expression), patient));
    }
  });

  it('hands back primitives with an _element, whatever fhirpath.js makes of them', () => {
    expectHandedBack('Patient.birthDate', { ...patient, _birthDate: { extension: [{ url: 'u', valueString: 'x' }] } });
    // Only the extension, no value: fhirpath.js gives nothing.
    const onlyExtension: Json = {
      resourceType: 'Patient',
      _birthDate: { extension: [{ url: 'u', valueString: 'x' }] },
    };
    expectHandedBack('Patient.birthDate', onlyExtension);
    expect(compileExpression('Patient.birthDate')(onlyExtension)).toEqual([]);
    expectHandedBack('Patient.name.given', {
      resourceType: 'Patient',
      name: [{ given: ['A', 'B'], _given: [null, { id: 'x' }] }],
    });
    expectHandedBack("Patient.telecom.where(system='email')", {
      resourceType: 'Patient',
      telecom: [{ _system: { id: 's' }, value: 'v' }],
    });
  });

  it('hands back nulls inside arrays, contained resources, non-text comparisons and string properties', () => {
    expectHandedBack('Patient.name.given', { resourceType: 'Patient', name: [{ given: ['A', null] }] });
    expectHandedBack('Bundle.entry.resource', { resourceType: 'Bundle', entry: [{ resource: patient }] });
    expectHandedBack("Patient.telecom.where(system='email')", {
      resourceType: 'Patient',
      telecom: [{ system: ['email'] }],
    });
    expectHandedBack("Patient.extension.where(url.startsWith('x'))", {
      resourceType: 'Patient',
      extension: [{ url: 5 }],
    });
    expectHandedBack('Patient.gender.length', patient);
    // Dates compare as dates in FHIRPath, not as text.
    expectHandedBack("Patient.where(birthDate = '1974-12-25')", patient);
  });
});
