import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';

describe('metadata, health and definitions', () => {
  it('answers /healthcheck with the database kind', async () => {
    const answer = await http<{ ok: boolean; database: string }>('GET', 'healthcheck');
    expect(answer.status).toBe(200);
    expect(answer.body.ok).toBe(true);
    expect(answer.body.database).toBe(process.env.HEARTH_TEST_DATABASE_URL ? 'postgres' : 'pglite');
    expect(inject('databaseKind')).toBe(answer.body.database);
  });

  it('publishes a CapabilityStatement with types, interactions and search parameters', async () => {
    const answer = await http<{
      resourceType: string;
      fhirVersion: string;
      rest: {
        operation: { name: string }[];
        resource: {
          type: string;
          interaction: { code: string }[];
          operation: { name: string }[];
          searchParam: { name: string; type: string }[];
        }[];
      }[];
    }>('GET', 'fhir/R4/metadata');
    expect(answer.status).toBe(200);
    expect(answer.body.resourceType).toBe('CapabilityStatement');
    expect(answer.body.fhirVersion).toBe('4.0.1');
    const resources = answer.body.rest[0].resource;
    expect(resources.length).toBeGreaterThan(140);
    const patient = resources.find((r) => r.type === 'Patient')!;
    expect(patient.interaction.map((i) => i.code)).toEqual(
      expect.arrayContaining([
        'read',
        'vread',
        'update',
        'patch',
        'delete',
        'create',
        'search-type',
        'history-instance',
      ]),
    );
    // Operations are announced where they are answered.
    expect(patient.operation.map((o) => o.name)).toEqual(
      expect.arrayContaining(['everything', 'export', 'validate', 'graph']),
    );
    expect(resources.find((r) => r.type === 'Bot')!.operation.map((o) => o.name)).toContain('execute');
    expect(resources.find((r) => r.type === 'CodeSystem')!.operation.map((o) => o.name)).toEqual(
      expect.arrayContaining(['lookup', 'subsumes']),
    );
    expect(resources.find((r) => r.type === 'ValueSet')!.operation.map((o) => o.name)).toEqual(
      expect.arrayContaining(['expand', 'validate-code']),
    );
    expect(resources.find((r) => r.type === 'Observation')!.operation.map((o) => o.name)).not.toContain('everything');
    expect(answer.body.rest[0].operation.map((o) => o.name)).toEqual(['export', 'graphql']);
    expect(patient.searchParam).toEqual(
      expect.arrayContaining([
        { name: 'name', type: 'string', definition: expect.any(String) },
        { name: '_id', type: 'token' },
      ]),
    );
    expect(resources.some((r) => r.type === 'ProjectMembership')).toBe(true);
  });

  it('advertises only search parameters that a search accepts', async () => {
    const metadata = await http<{
      rest: { resource: { type: string; searchParam: { name: string; type: string }[] }[] }[];
    }>('GET', 'fhir/R4/metadata');
    const sampleValue: Record<string, string> = {
      date: 'ge2020-01-01',
      number: '1',
      quantity: '1',
      reference: 'Patient/x',
      string: 'a',
      token: 'a',
      uri: 'http://example.org/a',
    };
    for (const type of ['Patient', 'Observation', 'Communication']) {
      const advertised = metadata.body.rest[0].resource.find((r) => r.type === type)!.searchParam;
      // Defined on every Resource, refused by search ("not supported"): a client must not be told they work.
      expect(advertised.map((p) => p.name).filter((name) => ['_text', '_content', '_query'].includes(name))).toEqual(
        [],
      );
      for (const parameter of advertised.filter((p) => sampleValue[p.type])) {
        const answer = await http(
          'GET',
          `fhir/R4/${type}?${parameter.name}=${encodeURIComponent(sampleValue[parameter.type])}&_count=1`,
        );
        expect({ parameter: parameter.name, refused: answer.status === 400 ? issueText(answer.body) : '' }).toEqual({
          parameter: parameter.name,
          refused: '',
        });
      }
    }
  });

  it('loaded the definitions as ordinary, searchable resources', async () => {
    const sd = await http<{ resourceType: string; snapshot: { element: unknown[] } }>(
      'GET',
      'fhir/R4/StructureDefinition/Patient',
    );
    expect(sd.status).toBe(200);
    expect(sd.body.snapshot.element.length).toBeGreaterThan(30);
    const usCore = await http<{ total: number; entry: { resource: { name: string } }[] }>(
      'GET',
      'fhir/R4/StructureDefinition?url=http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient&_total=accurate',
    );
    expect(usCore.body.total).toBe(1);
    expect(usCore.body.entry[0].resource.name).toBe('USCorePatientProfile');
    const medplum = await http<{ total: number }>(
      'GET',
      'fhir/R4/StructureDefinition?name=ProjectMembership&_total=accurate',
    );
    expect(medplum.body.total).toBeGreaterThanOrEqual(1);
    const params = await http<{ total: number }>(
      'GET',
      'fhir/R4/SearchParameter?base=Patient&code=name&_total=accurate',
    );
    expect(params.body.total).toBeGreaterThanOrEqual(1);
    const valueSet = await http<{ total: number }>(
      'GET',
      'fhir/R4/ValueSet?url=http://hl7.org/fhir/ValueSet/administrative-gender&_total=accurate',
    );
    expect(valueSet.body.total).toBe(1);
    const codeSystem = await http<{ total: number }>(
      'GET',
      'fhir/R4/CodeSystem?url=http://terminology.hl7.org/CodeSystem/v3-ActCode&_total=accurate',
    );
    expect(codeSystem.body.total).toBe(1);
  });

  it('created the first super admin without exposing the password hash', async () => {
    const users = await http<{ entry: { resource: Record<string, unknown> }[] }>(
      'GET',
      'fhir/R4/User?email=admin@example.com',
    );
    expect(users.body.entry).toHaveLength(1);
    expect(users.body.entry[0].resource.passwordHash).toBeUndefined();
    const projects = await http<{ entry: { resource: { superAdmin?: boolean; name: string } }[] }>(
      'GET',
      'fhir/R4/Project?name=Hearth',
    );
    expect(projects.body.entry[0].resource.superAdmin).toBe(true);
  });
});

describe('type-level search basics (the search issue completes the engine)', () => {
  it('pages with _count/_offset, links that reproduce the query, and totals', async () => {
    const family = `Page${randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 5; i++) {
      await http('POST', 'fhir/R4/Patient', {
        body: { resourceType: 'Patient', name: [{ family, given: [`G${i}`] }] },
      });
    }
    const first = await http<{
      total: number;
      entry: { resource: { name: { given: string[] }[] } }[];
      link: { relation: string; url: string }[];
    }>('GET', `fhir/R4/Patient?family=${family}&_count=2&_total=accurate&_sort=-_lastUpdated`);
    expect(first.body.total).toBe(5);
    expect(first.body.entry.map((e) => e.resource.name[0].given[0])).toEqual(['G4', 'G3']);
    const next = first.body.link.find((l) => l.relation === 'next')!;
    expect(next.url).toContain(`family=${family}`);
    expect(next.url).toContain('_offset=2');
    const second = await http<{ entry: { resource: { name: { given: string[] }[] } }[] }>('GET', next.url);
    expect(second.body.entry.map((e) => e.resource.name[0].given[0])).toEqual(['G2', 'G1']);
  });

  it('refuses unknown parameters and malformed values with 400', async () => {
    const unknown = await http('GET', 'fhir/R4/Patient?colour=blue');
    expect(unknown.status).toBe(400);
    expect(issueText(unknown.body)).toBe('Unknown search parameter "colour" for Patient');
    const badDate = await http('GET', 'fhir/R4/Patient?birthdate=ge2020-99');
    expect(badDate.status).toBe(400);
    expect(issueText(badDate.body)).toContain('Invalid date value');
    const badCount = await http('GET', 'fhir/R4/Patient?_count=-1');
    expect(badCount.status).toBe(400);
    const badModifier = await http('GET', 'fhir/R4/Patient?name:below=x');
    expect(badModifier.status).toBe(400);
  });
});
