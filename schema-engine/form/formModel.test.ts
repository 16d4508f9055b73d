import type { Bundle, Observation, Patient, Resource } from '@medplum/fhirtypes';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SchemaLoader } from '../loading/schemaLoader';
import { recordedSource } from '../test-support/recordedDefinitions';
import {
  addValue,
  canAddValue,
  canRemoveValue,
  fromFormModel,
  removeValue,
  switchChoiceType,
  toFormModel,
} from './formModel';
import type { FormField, FormObject } from './formTypes';
import { createJsonPatch } from './jsonPatch';
import { loadFormTypes } from './loadFormTypes';

const fixtures = join(__dirname, '..', '..', 'tests', 'fixtures', 'synthea');

function syntheaResources(): Resource[] {
  return readdirSync(fixtures)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => (JSON.parse(readFileSync(join(fixtures, f), 'utf8')) as Bundle).entry ?? [])
    .map((e) => e.resource as Resource);
}

function field(model: FormObject, key: string): FormField {
  const found = model.fields.find((f) => f.key === key || f.element.name === key);
  if (!found) throw new Error(`no field ${key}`);
  return found;
}

describe('form model', () => {
  const loader = new SchemaLoader(recordedSource());
  const lookup = (type: string) => loader.getType(type);

  it('round-trips every resource of the Synthea fixtures unchanged (key order included)', async () => {
    const resources = syntheaResources();
    expect(resources.length).toBeGreaterThan(500);
    const types = new Set<string>();
    let expanded = 0;
    for (const resource of resources) {
      const schema = await loader.loadResourceSchema(resource);
      await loadFormTypes(loader, schema, resource);
      const model = toFormModel(resource, schema, lookup);
      expanded += model.fields.filter((f) => f.values.some((v) => v.kind === 'object')).length;
      const back = fromFormModel(model);
      expect(JSON.stringify(back)).toBe(JSON.stringify(resource));
      expect(createJsonPatch(resource, back)).toEqual([]);
      types.add(resource.resourceType);
    }
    expect(types.size).toBeGreaterThan(10);
    // The model really expanded datatypes (not everything kept opaque).
    expect(expanded).toBeGreaterThan(resources.length);
  }, 60_000);

  const patient: Patient = {
    resourceType: 'Patient',
    id: 'p1',
    meta: { versionId: '3', lastUpdated: '2024-01-01T00:00:00Z', profile: ['http://example.org/unknown'] },
    extension: [{ url: 'http://example.org/unknown-extension', valueString: 'kept' }],
    modifierExtension: [{ url: 'http://example.org/modifier', valueBoolean: true }],
    contained: [{ resourceType: 'Organization', id: 'org', name: 'Clinic' }],
    name: [
      {
        given: ['Ann', 'Marie'],
        _given: [null, { extension: [{ url: 'http://x/ext', valueCode: 'a' }] }],
        family: 'Lee',
      },
    ],
    birthDate: '1980-02-03',
    _birthDate: {
      extension: [
        { url: 'http://hl7.org/fhir/StructureDefinition/patient-birthTime', valueDateTime: '1980-02-03T10:00:00Z' },
      ],
    },
    deceasedBoolean: false,
    managingOrganization: { reference: '#org' },
  } as unknown as Patient;

  beforeAll(async () => {
    const schema = await loader.loadType('Patient');
    await loadFormTypes(loader, schema, patient);
    await loader.loadTypes(['Observation', 'Quantity', 'CodeableConcept']);
  });

  it('keeps unknown keys, extensions, modifierExtension, contained and primitive extensions', async () => {
    const schema = await loader.loadType('Patient');
    const withUnknown = { ...patient, unknownThing: { a: 1 } } as Patient;
    const model = toFormModel(withUnknown, schema, lookup);
    expect(model.extras).toEqual({ resourceType: 'Patient', unknownThing: { a: 1 } });
    expect(field(model, 'birthDate').values[0]).toMatchObject({ kind: 'primitive', type: 'date', value: '1980-02-03' });
    expect(fromFormModel(model)).toEqual(withUnknown);
  });

  it('marks id and meta.versionId read-only and gives nested values FHIRPath expressions', async () => {
    const model = toFormModel(patient, await loader.loadType('Patient'), lookup);
    expect(field(model, 'id').readOnly).toBe(true);
    const meta = field(model, 'meta').values[0] as FormObject;
    expect(field(meta, 'versionId').readOnly).toBe(true);
    expect(field(meta, 'profile').readOnly).toBe(false);
    const name = field(model, 'name').values[0] as FormObject;
    expect(name.expression).toBe('Patient.name[0]');
    expect(field(model, 'deceased').key).toBe('deceasedBoolean');
  });

  it('switches a choice type: the key follows the type and the old value goes', async () => {
    const model = toFormModel(patient, await loader.loadType('Patient'), lookup);
    const deceased = field(model, 'deceased');
    switchChoiceType(deceased, 'dateTime');
    addValue(deceased, await loader.loadType('Patient'), lookup, 'Patient', '2020-01-01');
    const saved = fromFormModel<Patient>(model);
    expect(saved.deceasedDateTime).toBe('2020-01-01');
    expect('deceasedBoolean' in saved).toBe(false);
    expect(() => switchChoiceType(deceased, 'Quantity')).toThrow('Quantity is not a type of deceased[x]');
  });

  it('adds values up to max and removes only above min', async () => {
    const schema = await loader.loadType('Observation');
    const observation: Observation = { resourceType: 'Observation', status: 'final', code: { text: 'x' } };
    const model = toFormModel(observation, schema, lookup);
    const status = field(model, 'status');
    expect(canAddValue(status)).toBe(false); // max 1, present
    expect(canRemoveValue(status)).toBe(false); // min 1
    expect(removeValue(status, 0)).toBe(false);
    const category = field(model, 'category');
    expect(addValue(category, schema, lookup, 'Observation', { text: 'vital' })).toBe(true);
    expect(addValue(category, schema, lookup, 'Observation')).toBe(true);
    expect(canRemoveValue(category)).toBe(true);
    // The second, never filled in, is not saved.
    expect(fromFormModel<Observation>(model).category).toEqual([{ text: 'vital' }]);
    expect(removeValue(category, 0)).toBe(true);
    expect(fromFormModel<Observation>(model).category).toBeUndefined();
  });
});
