import type { SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { recordedDefinition, recordedSource } from '../test-support/recordedDefinitions';
import { memorySchemaSource } from './memorySchemaSource';
import { SchemaLoader } from './schemaLoader';

const usCorePatient = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';

describe('SchemaLoader', () => {
  it('loads one type lazily, caches it and shares a load under way', async () => {
    const source = recordedSource();
    const loader = new SchemaLoader(source);
    expect(source.calls.structureDefinitionUrls).toEqual([]);
    const [a, b] = await Promise.all([loader.loadType('Patient'), loader.loadType('Patient')]);
    expect(a).toBe(b);
    expect(await loader.loadType('Patient')).toBe(a);
    expect(loader.getType('Patient')).toBe(a);
    // One request, for the R4 and Medplum urls of Patient only: never the whole set.
    expect(source.calls.structureDefinitionUrls).toEqual([
      ['http://hl7.org/fhir/StructureDefinition/Patient', 'https://medplum.com/fhir/StructureDefinition/Patient'],
    ]);
  });

  it("loads Medplum's own types and a form's datatypes in one round trip", async () => {
    const source = recordedSource();
    const loader = new SchemaLoader(source);
    const project = await loader.loadType('Project');
    expect(project.url).toBe('https://medplum.com/fhir/StructureDefinition/Project');
    const patient = await loader.loadType('Patient');
    const before = source.calls.structureDefinitionUrls.length;
    const datatypes = await loader.loadElementTypes(patient);
    expect(source.calls.structureDefinitionUrls.length).toBe(before + 1);
    expect(datatypes.map((d) => d.type)).toEqual(
      expect.arrayContaining(['Meta', 'HumanName', 'Address', 'CodeableConcept', 'Reference', 'Attachment']),
    );
    expect(datatypes.map((d) => d.type)).not.toContain('BackboneElement');
    expect(loader.getType('HumanName')?.elements.get('given')?.max).toBe(Infinity);
  });

  it("rejects unknown types with '{type} not implemented' and unknown profiles with 'StructureDefinition not found'", async () => {
    const loader = new SchemaLoader(recordedSource());
    await expect(loader.loadType('Spaceship')).rejects.toThrow('Spaceship not implemented');
    await expect(loader.loadProfile('http://example.org/nothing')).rejects.toThrow('StructureDefinition not found');
  });

  it('does not cache failures: a profile saved later is found on the next load', async () => {
    const definitions: StructureDefinition[] = [];
    const source = memorySchemaSource(definitions);
    const loader = new SchemaLoader({
      structureDefinitions: (urls) => memorySchemaSource(definitions).structureDefinitions(urls),
      searchParameters: source.searchParameters,
    });
    await expect(loader.loadProfile(usCorePatient)).rejects.toThrow('StructureDefinition not found');
    definitions.push(recordedDefinition(usCorePatient));
    expect((await loader.loadProfile(usCorePatient)).profileUrl).toBe(usCorePatient);
  });

  it('fails clearly on a definition without a snapshot or a type', async () => {
    const broken = { ...recordedDefinition(usCorePatient), snapshot: undefined };
    const noType = {
      ...recordedDefinition(usCorePatient),
      url: 'http://x/no-type',
      type: undefined as unknown as string,
    };
    const loader = new SchemaLoader(memorySchemaSource([broken, noType]));
    await expect(loader.loadProfile(usCorePatient)).rejects.toThrow('StructureDefinition snapshot missing');
    await expect(loader.loadProfile('http://x/no-type')).rejects.toThrow('StructureDefinition type missing');
  });

  it("uses a resource's meta.profile over the base, skipping profiles the server lacks", async () => {
    const loader = new SchemaLoader(recordedSource());
    const profiled = await loader.loadResourceSchema({
      resourceType: 'Patient',
      meta: { profile: ['http://example.org/missing', usCorePatient] },
    });
    expect(profiled.profileUrl).toBe(usCorePatient);
    const plain = await loader.loadResourceSchema({ resourceType: 'Patient' });
    expect(plain.profileUrl).toBeUndefined();
    await expect(loader.loadResourceSchema({ resourceType: 'Patient' }, 'http://example.org/missing')).rejects.toThrow(
      'StructureDefinition not found',
    );
  });

  it('loads search parameters of a type and of Resource/DomainResource in pages of 100', async () => {
    const parameters = Array.from({ length: 230 }, (_, i) => ({
      resourceType: 'SearchParameter',
      code: `p${i}`,
      name: `p${i}`,
      url: `http://x/p${i}`,
      status: 'active',
      description: '',
      type: 'string',
      base: [i % 2 ? 'Patient' : 'Resource'],
      expression: `Patient.p${i}`,
    })) as SearchParameter[];
    const source = memorySchemaSource([], parameters);
    const loader = new SchemaLoader(source);
    const loaded = await loader.loadSearchParameters('Patient');
    expect(loaded).toHaveLength(230);
    expect(source.calls.searchParameterPages.map((p) => [p.offset, p.count])).toEqual([
      [0, 100],
      [100, 100],
      [200, 100],
    ]);
    expect(source.calls.searchParameterPages[0].bases).toEqual(['Patient', 'DomainResource', 'Resource']);
    await loader.loadSearchParameters('Patient');
    expect(source.calls.searchParameterPages).toHaveLength(3);
  });

  it('knows the real search parameters of Patient, including US Core and _lastUpdated', async () => {
    const loader = new SchemaLoader(recordedSource());
    const parameters = await loader.loadSearchParameters('Patient');
    const byCode = new Map(parameters.map((p) => [p.code, p]));
    expect(byCode.get('birthdate')?.type).toBe('date');
    expect(byCode.get('_lastUpdated')?.type).toBe('date');
    expect(byCode.get('name')?.type).toBe('string');
    expect(byCode.get('race')?.type).toBe('token');
  });

  it('forget() fetches a type again after an implementer saved a new version', async () => {
    const source = recordedSource();
    const loader = new SchemaLoader(source);
    await loader.loadProfile(usCorePatient);
    loader.forget(usCorePatient);
    await loader.loadProfile(usCorePatient);
    expect(source.calls.structureDefinitionUrls).toEqual([[usCorePatient], [usCorePatient]]);
  });
});
