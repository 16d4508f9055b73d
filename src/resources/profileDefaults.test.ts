import { describe, expect, it } from 'vitest';
import type { Observation, Resource } from '@medplum/fhirtypes';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { withProfileDefaults } from './profileDefaults';

const bloodPressure = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure';

describe('profile defaults for a new resource', () => {
  it('pre-fills the slices a profile requires with their fixed values', async () => {
    const loader = new SchemaLoader(recordedSource());
    const schema = await loader.loadProfile(bloodPressure);
    const filled = (await withProfileDefaults(
      loader,
      { resourceType: 'Observation' } as Resource,
      schema,
    )) as Observation;
    const componentCodes = (filled.component ?? []).flatMap((c) => c.code?.coding?.map((coding) => coding.code) ?? []);
    expect(componentCodes).toEqual(expect.arrayContaining(['8480-6', '8462-4']));
    expect(JSON.stringify(filled.category)).toContain('vital-signs');
    // The profile's required code (a pattern) is set too; elements it does not fix stay empty.
    expect(filled.code).toEqual({ coding: [{ system: 'http://loinc.org', code: '85354-9' }] });
    expect(filled.status).toBeUndefined();
  });

  it('keeps a value the resource already has for a fixed element', async () => {
    const loader = new SchemaLoader(recordedSource());
    const schema = await loader.loadProfile(bloodPressure);
    const code = { text: 'Blood pressure' };
    const filled = (await withProfileDefaults(
      loader,
      { resourceType: 'Observation', code } as Resource,
      schema,
    )) as Observation;
    expect(filled.code).toEqual(code);
  });

  it('leaves a base-type resource as it is', async () => {
    const loader = new SchemaLoader(recordedSource());
    const schema = await loader.loadType('Patient');
    const patient = { resourceType: 'Patient', gender: 'female' } as Resource;
    expect(await withProfileDefaults(loader, patient, schema)).toEqual(patient);
  });
});
