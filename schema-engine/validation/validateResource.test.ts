import type { Bundle, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SchemaLoader } from '../loading/schemaLoader';
import { recordedSource } from '../test-support/recordedDefinitions';
import { issuesToOutcome, validateResource } from './validateResource';
import type { ValueSetCodeLookup } from './validationTypes';

const loader = new SchemaLoader(recordedSource());
const options = { schemas: loader };
const usCorePatient = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
const bpUrl = 'http://hl7.org/fhir/StructureDefinition/bp';

const valid: Patient = {
  resourceType: 'Patient',
  id: 'abc',
  identifier: [{ system: 'http://hospital.example/mrn', value: '123' }],
  name: [{ given: ['Ann', 'Marie'], family: 'Lee' }],
  gender: 'female',
  birthDate: '1980-02-03',
  contact: [{ name: { family: 'Lee' } }],
};

export function texts(issues: { details?: { text?: string }; expression?: string[] }[]): string[] {
  return issues.map((i) => `${i.expression?.[0]}: ${i.details?.text}`);
}

describe('validateResource', () => {
  it('accepts a valid resource against the base and the US Core profile', async () => {
    expect(await validateResource(valid, await loader.loadType('Patient'), options)).toEqual([]);
    expect(await validateResource(valid, await loader.loadProfile(usCorePatient), options)).toEqual([]);
    expect(issuesToOutcome([]).issue?.[0].code).toBe('informational');
  });

  it('reports primitive formats and types with FHIRPath expressions', async () => {
    const bad = {
      ...valid,
      id: 'not valid!',
      birthDate: '1980-13-01',
      name: [{ given: ['Ann', 42] }],
      active: 'yes',
    } as unknown as Patient;
    const issues = await validateResource(bad, await loader.loadType('Patient'), options);
    expect(texts(issues)).toEqual([
      'Patient.id: Invalid id format',
      'Patient.active: Expected boolean',
      'Patient.name[0].given[1]: Expected string (a string)',
      'Patient.birthDate: Invalid date format',
    ]);
    expect(issuesToOutcome(issues).issue).toHaveLength(4);
  });

  it('reports cardinality, shape and unknown properties', async () => {
    const bad = { ...valid, gender: ['female'], link: [{ type: 'seealso' }], foo: 1 } as unknown as Patient;
    const issues = await validateResource(bad, await loader.loadType('Patient'), options);
    expect(texts(issues)).toEqual([
      'Patient.gender: Expected a single value for gender',
      'Patient.link[0].other: Missing required property',
      'Patient.foo: Invalid additional property "foo"',
    ]);
    expect(issues[1].code).toBe('required');
  });

  it("reports a profile's required elements", async () => {
    const { identifier: _identifier, ...withoutIdentifier } = valid;
    const issues = await validateResource(
      withoutIdentifier as Patient,
      await loader.loadProfile(usCorePatient),
      options,
    );
    expect(texts(issues)).toContain('Patient.identifier: Missing required property');
  });

  it('evaluates FHIRPath invariants (pat-1: a contact has details)', async () => {
    const bad: Patient = { ...valid, contact: [{ gender: 'male' }] };
    const issues = await validateResource(bad, await loader.loadType('Patient'), options);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'invariant', expression: ['Patient.contact[0]'] });
    expect(issues[0].details?.text).toContain('pat-1');
    const skipped = await validateResource(bad, await loader.loadType('Patient'), { ...options, invariants: false });
    expect(skipped).toEqual([]);
  });

  it('checks slices (min per slice), fixed and pattern values of a profile', async () => {
    const bp: Observation = {
      resourceType: 'Observation',
      status: 'final',
      category: [
        { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
      ],
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      subject: { reference: 'Patient/1' },
      effectiveDateTime: '2024-01-01',
      component: [
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
          valueQuantity: { value: 120, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ system: 'http://loinc.org', code: '9999-9' }] },
          valueQuantity: { value: 80, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
      ],
    };
    const schema = await loader.loadProfile(bpUrl);
    const issues = await validateResource(bp, schema, options);
    expect(texts(issues)).toEqual([
      'Observation.component:DiastolicBP: Slice DiastolicBP: at least 1 required, found 0',
    ]);
    const fixed = structuredClone(bp);
    (fixed.component ?? [])[1].code = { coding: [{ system: 'http://loinc.org', code: '8462-4' }] };
    expect(await validateResource(fixed, schema, options)).toEqual([]);
  });

  it('checks required bindings through the ValueSet lookup, and never guesses without one', async () => {
    const genders: ValueSetCodeLookup = {
      hasCode: async (url, _system, code) =>
        url === 'http://hl7.org/fhir/ValueSet/administrative-gender'
          ? ['male', 'female', 'other', 'unknown'].includes(code)
          : undefined,
    };
    const bad = { ...valid, gender: 'woman' } as unknown as Patient;
    const schema = await loader.loadType('Patient');
    const issues = await validateResource(bad, schema, { ...options, valueSets: genders });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'code-invalid', expression: ['Patient.gender'] });
    expect(await validateResource(bad, schema, options)).toEqual([]);
    expect(await validateResource(valid, schema, { ...options, valueSets: genders })).toEqual([]);
  });

  it('validates contained resources by their own type', async () => {
    const withContained = {
      ...valid,
      contained: [{ resourceType: 'Organization', id: 'o', active: 'no' }],
    } as unknown as Patient;
    const issues = await validateResource(withContained, await loader.loadType('Patient'), options);
    expect(texts(issues)).toContain('Patient.contained[0].active: Expected boolean');
  });

  it('refuses a resource of another type', async () => {
    const issues = await validateResource(
      { resourceType: 'Observation' } as Observation,
      await loader.loadType('Patient'),
      options,
    );
    expect(texts(issues)).toEqual(['resourceType: Expected resourceType Patient']);
  });

  it('finds nothing wrong in real data: one Synthea patient bundle, each resource with its profile or base type', async () => {
    const fixtures = join(__dirname, '..', '..', 'tests', 'fixtures', 'synthea');
    const file = readdirSync(fixtures).filter((f) => f.endsWith('.json'))[0];
    const bundle = JSON.parse(readFileSync(join(fixtures, file), 'utf8')) as Bundle;
    const resources = (bundle.entry ?? []).map((e) => e.resource as Resource);
    expect(resources.length).toBeGreaterThan(20);
    for (const resource of resources) {
      const issues = await validateResource(resource, await loader.loadResourceSchema(resource), options);
      expect(texts(issues), `${resource.resourceType}/${resource.id}`).toEqual([]);
    }
  }, 30_000);
});
