import { describe, expect, it } from 'vitest';
import { buildTypeSchema, graphqlSchemaSource, SchemaLoader, type GraphqlClient } from '../../schema-engine';
import { memorySchemaSource } from '../../schema-engine/loading/memorySchemaSource';
import { recordedStructureDefinitions } from '../../schema-engine/test-support/recordedDefinitions';
import { http } from './fhirClient';

/** The schema engine's GraphQL source against the real server's `$graphql`. */
const client: GraphqlClient = {
  graphql: async <T>(query: string, operationName?: string, variables?: Record<string, unknown>) =>
    (await http<{ data?: T }>('POST', 'fhir/R4/$graphql', { body: { query, operationName, variables } })).body,
};

/** A model as comparable JSON; `definition` is not fetched over GraphQL (wire size). */
function comparable(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) =>
    key === 'definition' ? undefined : v instanceof Map ? [...v.entries()] : v === Infinity ? 'Infinity' : v,
  );
}

describe('schema engine over the server GraphQL', () => {
  it('builds the same model as from the full definitions: base types, Medplum types, profiles with nested slices', async () => {
    const urls = [
      'http://hl7.org/fhir/StructureDefinition/ExplanationOfBenefit',
      'http://hl7.org/fhir/StructureDefinition/Questionnaire',
      'https://medplum.com/fhir/StructureDefinition/Project',
      'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient',
      'http://hl7.org/fhir/StructureDefinition/bp',
    ];
    const remote = await graphqlSchemaSource(client).structureDefinitions(urls);
    const local = await memorySchemaSource(recordedStructureDefinitions()).structureDefinitions(urls);
    for (let i = 0; i < urls.length; i++) {
      expect(remote[i], urls[i]).toBeDefined();
      expect(comparable(buildTypeSchema(remote[i] as never)), urls[i]).toBe(
        comparable(buildTypeSchema(local[i] as never)),
      );
    }
  });

  it('loads a type, its datatypes and its search parameters, and names what the server lacks', async () => {
    const loader = new SchemaLoader(graphqlSchemaSource(client));
    const patient = await loader.loadType('Patient');
    expect(patient.elements.get('name')?.types).toEqual(['HumanName']);
    const datatypes = await loader.loadElementTypes(patient);
    expect(datatypes.map((d) => d.type)).toContain('HumanName');
    const parameters = await loader.loadSearchParameters('Patient');
    expect(parameters.map((p) => p.code)).toEqual(
      expect.arrayContaining(['name', 'birthdate', '_lastUpdated', 'race']),
    );
    await expect(loader.loadType('Spaceship')).rejects.toThrow('Spaceship not implemented');
    await expect(loader.loadProfile('http://example.org/StructureDefinition/none')).rejects.toThrow(
      'StructureDefinition not found',
    );
  });
});
