import type { Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { registerProjectOwner } from '../accounts';
import { freePort } from '../freePort';
import { signInWithClient, testClient } from './clientSession';
import { type CountingProxy, startCountingProxy } from './countingProxy';

/** Retries, the offline event and cancellation, over real sockets. */
describe('FhirClient against the server: network behaviour', () => {
  let proxy: CountingProxy;
  let client: FhirClient;
  let patient: Patient;

  beforeAll(async () => {
    proxy = await startCountingProxy(inject('baseUrl'));
    const owner = await registerProjectOwner();
    ({ client } = testClient({ baseUrl: proxy.url, autoBatchTime: 0 }));
    await signInWithClient(client, owner.email, owner.password);
    patient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Network' }] });
  });

  afterAll(async () => proxy?.close());

  it('a 5xx is retried twice; the third try reaches the server', async () => {
    proxy.requests.length = 0;
    proxy.failNext(2, 503);
    const read = await client.readResource('Patient', patient.id as string);
    expect(read.id).toBe(patient.id);
    expect(proxy.requests.map((request) => request.path)).toEqual(Array(3).fill(`/fhir/R4/Patient/${patient.id}`));
  });

  it('three 5xx answers in a row: the call fails with the last outcome', async () => {
    proxy.requests.length = 0;
    proxy.failNext(3, 502);
    const error = await client.readResource('Patient', patient.id as string).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as OperationOutcomeError).status).toBe(502);
    expect((error as OperationOutcomeError).message).toBe('Proxy answered 502');
    expect(proxy.requests).toHaveLength(3);
  });

  it('a 4xx is not retried', async () => {
    proxy.requests.length = 0;
    await client.readResource('Patient', 'not-there').catch(() => undefined);
    expect(proxy.requests).toHaveLength(1);
  });

  it("no server at the address: an 'offline' event on the first failed try, and the call rejects", async () => {
    const port = await freePort();
    const { client: nowhere } = testClient({ baseUrl: `http://127.0.0.1:${port}/`, autoBatchTime: 0 });
    const offline = vi.fn();
    nowhere.addEventListener('offline', offline);
    await expect(nowhere.search('Patient')).rejects.toThrow();
    expect(offline).toHaveBeenCalledTimes(1);
  });

  it('an aborted call rejects with the abort reason', async () => {
    const controller = new AbortController();
    const pending = client.search('Patient', { _count: '1' }, { signal: controller.signal });
    const reason = new DOMException('The user left the screen', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
