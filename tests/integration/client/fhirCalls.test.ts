import type { Bundle, Observation, OperationOutcome, Patient, ValueSet } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { ownerClient } from './clientSession';

async function failure(promise: Promise<unknown>): Promise<OperationOutcomeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperationOutcomeError);
  return error as OperationOutcomeError;
}

/** The FHIR calls of spec §7, made by our FhirClient against the real server. */
describe('FhirClient against the server: FHIR calls', () => {
  let client: FhirClient;
  const family = `Client${Date.now().toString(36)}`;

  beforeAll(async () => {
    ({ client } = await ownerClient());
  });

  it('create, read, readReference, update, vread, history, patch and delete one resource', async () => {
    const created = await client.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ given: ['Eve'], family }],
      gender: 'female',
    });
    expect(created.id).toBeTruthy();
    expect(created.meta?.versionId).toBeTruthy();

    expect(await client.readResource('Patient', created.id as string)).toMatchObject({
      id: created.id,
      gender: 'female',
    });
    expect(await client.readReference<Patient>({ reference: `Patient/${created.id}` })).toMatchObject({
      id: created.id,
    });

    const updated = await client.updateResource<Patient>({ ...created, gender: 'other' });
    expect(updated.gender).toBe('other');
    expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);

    const first = await client.readVersion('Patient', created.id as string, created.meta?.versionId as string);
    expect(first.gender).toBe('female');
    const history = await client.readHistory('Patient', created.id as string);
    expect(history.type).toBe('history');
    expect(history.entry?.map((entry) => entry.resource?.meta?.versionId)).toEqual([
      updated.meta?.versionId,
      created.meta?.versionId,
    ]);

    const patched = await client.patchResource('Patient', created.id as string, [
      { op: 'test', path: '/gender', value: 'other' },
      { op: 'replace', path: '/gender', value: 'male' },
    ]);
    expect(patched.gender).toBe('male');

    await client.deleteResource('Patient', created.id as string);
    const gone = await failure(client.readResource('Patient', created.id as string));
    expect(gone.status).toBe(410);
  });

  it('an update with a stale If-Match answers 412 with the server outcome, and changes nothing', async () => {
    const created = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family }] });
    await client.updateResource<Patient>({ ...created, active: true });
    const stale = await failure(
      client.updateResource<Patient>(
        { ...created, active: false },
        { headers: { 'If-Match': `W/"${created.meta?.versionId}"` } },
      ),
    );
    expect(stale.status).toBe(412);
    expect(stale.outcome.issue[0].code).toBe('conflict');
    expect((await client.readResource('Patient', created.id as string)).active).toBe(true);
  });

  it('client-side checks refuse before sending, with the spec texts', async () => {
    expect((await failure(client.createResource({} as Patient))).message).toBe('Missing resourceType');
    expect((await failure(client.readResource('Patient', ''))).message).toBe('The resource id must not be empty');
    expect((await failure(client.updateResource({ resourceType: 'Patient' }))).message).toBe('Missing id');
  });

  it('server errors carry the OperationOutcome and the spec §8 text', async () => {
    const notFound = await failure(client.readResource('Patient', 'does-not-exist'));
    expect(notFound.status).toBe(404);
    expect(notFound.outcome.issue[0].code).toBe('not-found');
    const invalid = await failure(
      client.createResource({ resourceType: 'Patient', gender: 'sometimes' } as unknown as Patient),
    );
    expect(invalid.status).toBe(400);
    // Each issue with its expression in parentheses, issues joined by semicolons.
    expect(invalid.message).toMatch(/\(Patient\.gender\)|\(gender\)/);
    const unknownParameter = await failure(client.search('Patient', { nothing: 'x' }));
    expect(unknownParameter.message).toBe('Unknown search parameter "nothing" for Patient (nothing)');
  });

  it('search, searchOne and searchResources', async () => {
    for (const given of ['Ann', 'Bob', 'Cid']) {
      await client.createResource<Patient>({ resourceType: 'Patient', name: [{ given: [given], family }] });
    }
    const bundle = await client.search('Patient', { family, _sort: 'given', _total: 'accurate' });
    expect(bundle.type).toBe('searchset');
    expect(bundle.total).toBeGreaterThanOrEqual(3);
    const one = await client.searchOne('Patient', { family, given: 'Bob' });
    expect(one?.name?.[0].given).toEqual(['Bob']);
    const resources = await client.searchResources(
      'Patient',
      new URLSearchParams({ family, _count: '2', _sort: 'given' }),
    );
    expect(resources).toHaveLength(2);
    expect(resources.map((patient) => patient.name?.[0].given?.[0])).toEqual(['Ann', 'Bob']);
    expect(resources.bundle.link?.some((link) => link.relation === 'next')).toBe(true);
    expect(await client.searchOne('Patient', { family: 'NobodyHasThisName' })).toBeUndefined();
  });

  it('conditional create makes one resource however often it is asked', async () => {
    const identifier = `urn:test:${Date.now()}`;
    const patient: Patient = { resourceType: 'Patient', identifier: [{ system: 'urn:test', value: identifier }] };
    const first = await client.createResourceIfNoneExist(patient, `identifier=urn:test|${identifier}`);
    const second = await client.createResourceIfNoneExist(patient, `identifier=urn:test|${identifier}`);
    expect(second.id).toBe(first.id);
    const matches = await client.searchResources('Patient', { identifier: `urn:test|${identifier}` });
    expect(matches).toHaveLength(1);
  });

  it('batch and transaction Bundles', async () => {
    const transaction = await client.executeBatch({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:2d4f36c0-5f2e-4c7b-9a55-0a4d7a1c0001',
          resource: { resourceType: 'Patient', name: [{ family }] },
          request: { method: 'POST', url: 'Patient' },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Weight' },
            subject: { reference: 'urn:uuid:2d4f36c0-5f2e-4c7b-9a55-0a4d7a1c0001' },
          },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    });
    expect(transaction.type).toBe('transaction-response');
    const observation = transaction.entry?.[1].resource as Observation;
    const patientId = (transaction.entry?.[0].resource as Patient).id;
    expect(observation.subject?.reference).toBe(`Patient/${patientId}`);

    const batch = await client.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'GET', url: `Patient/${patientId}` } },
        { request: { method: 'GET', url: 'Patient/not-there' } },
      ],
    });
    expect(batch.type).toBe('batch-response');
    expect(batch.entry?.[0].response?.status).toMatch(/^200/);
    expect(batch.entry?.[1].response?.status).toMatch(/^404/);

    // A failing transaction writes nothing.
    const before = (await client.search('Patient', { family, _total: 'accurate', _count: '0' }, { cache: 'no-store' }))
      .total;
    const refused = await failure(
      client.executeBatch({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          { resource: { resourceType: 'Patient', name: [{ family }] }, request: { method: 'POST', url: 'Patient' } },
          { request: { method: 'DELETE', url: 'NotAType/1' } },
        ],
      }),
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const after = (await client.search('Patient', { family, _total: 'accurate', _count: '0' }, { cache: 'no-store' }))
      .total;
    expect(after).toBe(before);
  });

  it('GraphQL', async () => {
    const answer = await client.graphql<{ PatientList: { id: string; name: { family: string }[] }[] }>(
      'query Find($family: String) { PatientList(family: $family, _count: 50) { id name { family } } }',
      'Find',
      { family },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.PatientList.length).toBeGreaterThanOrEqual(3);
    expect(answer.data?.PatientList.every((p) => p.name[0].family === family)).toBe(true);
  });

  it('the schema load of spec §7: StructureDefinitionList and SearchParameterList in pages of 100', async () => {
    const answer = await client.graphql<{
      StructureDefinitionList: { name: string; snapshot: { element: { path: string }[] } }[];
      SearchParameterList: { code: string }[];
    }>(
      `query Schema($count: Int) {
        StructureDefinitionList(url: "http://hl7.org/fhir/StructureDefinition/Patient") { name snapshot { element { path } } }
        SearchParameterList(base: "Patient", _count: $count) { code }
      }`,
      'Schema',
      { count: 100 },
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.StructureDefinitionList[0].name).toBe('Patient');
    expect(answer.data?.StructureDefinitionList[0].snapshot.element.map((e) => e.path)).toContain('Patient.birthDate');
    const codes = answer.data?.SearchParameterList.map((parameter) => parameter.code) ?? [];
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.length).toBeLessThanOrEqual(100);
    expect(codes).toContain('birthdate');
  });

  it('ValueSet/$expand with a filter', async () => {
    const expanded: ValueSet = await client.valueSetExpand({
      url: 'http://hl7.org/fhir/ValueSet/administrative-gender',
      filter: 'fem',
    });
    expect(expanded.expansion?.contains?.map((coding) => coding.code)).toEqual(['female']);
  });

  it('auth/me session details: profile, project, membership, access policy flags', async () => {
    const profile = await client.refreshProfile();
    expect(profile?.resourceType).toBe('Practitioner');
    expect(client.getProject()?.id).toBeTruthy();
    expect(client.isProjectAdmin()).toBe(true);
    expect(client.isSuperAdmin()).toBe(false);
    expect(client.getProjectMembership()?.profile?.reference).toBe(`Practitioner/${profile?.id}`);
  });

  it('a batch answer of a read-only Bundle is not confused with an error outcome', async () => {
    const outcome = (await client.executeBatch({ resourceType: 'Bundle', type: 'batch', entry: [] })) as
      Bundle | OperationOutcome;
    expect(outcome.resourceType).toBe('Bundle');
  });
});
