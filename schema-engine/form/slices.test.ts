import type { Observation, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { SchemaLoader } from '../loading/schemaLoader';
import { recordedSource } from '../test-support/recordedDefinitions';
import { fromFormModel, toFormModel } from './formModel';
import { loadFormTypes } from './loadFormTypes';
import { applySliceDefaults, sliceInitialValue, sliceOf } from './slices';

const bpUrl = 'http://hl7.org/fhir/StructureDefinition/bp';
const usCorePatient = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';

describe('slices in the form model', () => {
  const loader = new SchemaLoader(recordedSource());
  const lookup = (type: string) => loader.getType(type);

  it('a new blood pressure form gets its required slices with their fixed codes', async () => {
    const schema = await loader.loadProfile(bpUrl);
    const observation: Observation = {
      resourceType: 'Observation',
      meta: { profile: [bpUrl] },
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      subject: { reference: 'Patient/1' },
      effectiveDateTime: '2024-01-01',
    };
    await loadFormTypes(loader, schema, observation);
    await loader.loadTypes(['Observation']);
    const model = toFormModel(observation, schema, lookup);
    expect(applySliceDefaults(model, schema, lookup)).toBe(3);
    const saved = fromFormModel<Observation>(model);
    expect(saved.category).toEqual([
      { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] },
    ]);
    expect(saved.component?.map((c) => c.code.coding?.[0])).toEqual([
      { system: 'http://loinc.org', code: '8480-6' },
      { system: 'http://loinc.org', code: '8462-4' },
    ]);
    expect(saved.component?.[0].valueQuantity).toEqual({ system: 'http://unitsofmeasure.org', code: 'mm[Hg]' });
    // Applying again adds nothing: the slices hold their min.
    expect(applySliceDefaults(model, schema, lookup)).toBe(0);
  });

  it('recognises existing entries of a slice by value and pattern discriminators', async () => {
    const schema = await loader.loadProfile(bpUrl);
    const component = schema.elements.get('component');
    if (!component) throw new Error('no component');
    const systolic = {
      code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
      valueQuantity: { value: 120 },
    };
    expect(sliceOf(systolic, component)?.name).toBe('SystolicBP');
    expect(sliceOf({ code: { coding: [{ system: 'http://loinc.org', code: '0000-0' }] } }, component)).toBeUndefined();
    const category = schema.elements.get('category');
    if (!category) throw new Error('no category');
    const vital = {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/observation-category',
          code: 'vital-signs',
          display: 'Vital Signs',
        },
      ],
    };
    expect(sliceOf(vital, category)?.name).toBe('VSCat');
  });

  it('US Core extensions are recognised by url and start with it', async () => {
    const schema = await loader.loadProfile(usCorePatient);
    const extension = schema.elements.get('extension');
    if (!extension) throw new Error('no extension');
    const race = extension.slicing?.slices.find((s) => s.name === 'race');
    if (!race) throw new Error('no race');
    expect(sliceInitialValue(race)).toEqual({ url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race' });
    expect(
      sliceOf({ url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race', extension: [] }, extension)?.name,
    ).toBe('race');
    // A patient without the optional slices gets none added.
    const patient: Patient = {
      resourceType: 'Patient',
      identifier: [{ value: '1' }],
      name: [{ family: 'X' }],
      gender: 'male',
    };
    await loadFormTypes(loader, schema, patient);
    const model = toFormModel(patient, schema, lookup);
    expect(applySliceDefaults(model, schema, lookup)).toBe(0);
    expect(fromFormModel(model)).toEqual(patient);
  });
});
