import type { Bundle, Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { registerProjectOwner } from '../accounts';
import { signInWithClient, testClient } from './clientSession';
import { type CountingProxy, startCountingProxy } from './countingProxy';

/**
 * Automatic batching (spec §7, §9: GETs within 100 ms become one batch Bundle), counted where it
 * matters: at a proxy in front of the real server, which sees what the server is asked.
 */
describe('FhirClient against the server: automatic batching', () => {
  let proxy: CountingProxy;
  let client: FhirClient;
  const patients: Patient[] = [];

  beforeAll(async () => {
    proxy = await startCountingProxy(inject('baseUrl'));
    const owner = await registerProjectOwner();
    ({ client } = testClient({ baseUrl: proxy.url }));
    await signInWithClient(client, owner.email, owner.password);
    for (const family of ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']) {
      patients.push(await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family }] }));
    }
  });

  afterAll(async () => proxy?.close());

  it('N concurrent GETs become ONE request to the server, and each caller gets its own answer', async () => {
    proxy.requests.length = 0;
    const [reads, search] = await Promise.all([
      Promise.all(patients.map((patient) => client.readResource('Patient', patient.id as string))),
      client.search('Patient', { family: 'Gamma' }),
    ]);
    expect(reads.map((patient) => patient.name?.[0].family)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon']);
    expect(search.entry?.map((entry) => entry.resource?.id)).toEqual([patients[2].id]);

    expect(proxy.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /fhir/R4/']);
    const batch = JSON.parse(proxy.requests[0].body) as Bundle;
    expect(batch.type).toBe('batch');
    expect(batch.entry?.map((entry) => `${entry.request?.method} ${entry.request?.url}`)).toEqual([
      ...patients.map((patient) => `GET Patient/${patient.id}`),
      'GET Patient?family=Gamma',
    ]);
  });

  it('a failing entry rejects only its caller, with its own outcome', async () => {
    proxy.requests.length = 0;
    const [found, missing] = await Promise.allSettled([
      client.readResource('Patient', patients[0].id as string),
      client.readResource('Patient', 'no-such-patient'),
    ]);
    expect(proxy.requests).toHaveLength(1);
    expect(found.status === 'fulfilled' && found.value.id).toBe(patients[0].id);
    expect(missing.status).toBe('rejected');
    const error = (missing as PromiseRejectedResult).reason as OperationOutcomeError;
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect(error.status).toBe(404);
  });

  it('GETs in separate windows go out separately, a lone GET as a plain GET', async () => {
    proxy.requests.length = 0;
    await client.readResource('Patient', patients[0].id as string);
    await client.readResource('Patient', patients[1].id as string);
    expect(proxy.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /fhir/R4/Patient/${patients[0].id}`,
      `GET /fhir/R4/Patient/${patients[1].id}`,
    ]);
  });

  it('disableAutoBatch sends at once', async () => {
    proxy.requests.length = 0;
    await Promise.all(
      patients
        .slice(0, 3)
        .map((patient) => client.readResource('Patient', patient.id as string, { disableAutoBatch: true })),
    );
    expect(proxy.requests.every((request) => request.method === 'GET')).toBe(true);
    expect(proxy.requests).toHaveLength(3);
  });
});
