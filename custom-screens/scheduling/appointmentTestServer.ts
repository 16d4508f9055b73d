/**
 * Test support (not part of the public surface): the real FhirClient over a small versioned FHIR
 * store — reads, version reads, searches (empty but for the stored type), and PUT with If-Match
 * answered 412 on a version mismatch, as the server does — so tests see what goes over the wire.
 */
import type { Appointment, Bundle, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse, type RecordedCall } from '../../data-provider/client/fakeFetch';

export interface AppointmentServer {
  client: FhirClient;
  fake: FakeFetch;
  /** Stores resources as the server has them now, at the next version. */
  put(...resources: Resource[]): void;
  get<T extends Resource>(reference: string): T;
  /** Someone else's write: the stored version moves on, so a write sending the old one gets a 412. */
  changeBehindTheClient(reference: string, change: Partial<Appointment>): void;
  /** The PUTs sent to `reference`, with their If-Match header and body. */
  puts(reference: string): { ifMatch?: string; body: Appointment }[];
  /** How many times `reference` was read. */
  reads(reference: string): number;
}

const header = (call: RecordedCall, name: string): string | undefined =>
  Object.entries(call.headers).find(([key]) => key.toLowerCase() === name)?.[1];

const outcome = (code: string, text: string): OperationOutcome => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: code as 'invalid', details: { text } }],
});

export function appointmentServer(): AppointmentServer {
  const fake = new FakeFetch();
  const store = new Map<string, Resource>();
  const versions = new Map<string, Resource>();
  const put = (resource: Resource) => {
    const key = `${resource.resourceType}/${resource.id}`;
    const version = String(Number(store.get(key)?.meta?.versionId ?? 0) + 1);
    const stored = { ...resource, meta: { ...resource.meta, versionId: version } } as Resource;
    store.set(key, stored);
    versions.set(`${key}/_history/${version}`, stored);
    return stored;
  };

  const answerGet = (relative: string): { status: number; body: Resource } => {
    const [path = '', query = ''] = relative.split('?');
    const [type = '', id, history, versionId] = path.split('/');
    if (!id || query) {
      const matches = [...store.values()].filter((resource) => resource.resourceType === type);
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'searchset',
        total: matches.length,
        entry: matches.map((resource) => ({ resource, search: { mode: 'match' } })),
      };
      return { status: 200, body: bundle };
    }
    const found =
      history === '_history' ? versions.get(`${type}/${id}/_history/${versionId}`) : store.get(`${type}/${id}`);
    return found ? { status: 200, body: found } : { status: 404, body: outcome('not-found', 'Not found') };
  };

  fake.on('POST', /\/fhir\/R4\/?$/, (call) => {
    const batch = JSON.parse(call.body as string) as Bundle;
    return jsonResponse({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: (batch.entry ?? []).map((entry) => {
        const { status, body } = answerGet(decodeURIComponent(entry.request?.url ?? ''));
        return { resource: body, response: { status: String(status) } };
      }),
    });
  });
  fake.on('GET', /\/fhir\/R4\//, (call) => {
    const { status, body } = answerGet(decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? ''));
    return jsonResponse(body, status);
  });
  fake.on('PUT', /\/fhir\/R4\/[A-Za-z]+\/[^/?]+$/, (call) => {
    const key = decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? '');
    const current = store.get(key);
    const ifMatch = header(call, 'if-match');
    if (ifMatch && ifMatch !== `W/"${current?.meta?.versionId ?? ''}"`) {
      return jsonResponse(
        outcome(
          'conflict',
          `Version mismatch: If-Match ${ifMatch} but the current version is ${current?.meta?.versionId ?? 'none'}`,
        ),
        412,
      );
    }
    return jsonResponse(put(JSON.parse(call.body as string) as Resource));
  });

  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  return {
    client,
    fake,
    put: (...resources) => resources.forEach(put),
    get: <T extends Resource>(reference: string) => store.get(reference) as T,
    changeBehindTheClient: (reference, change) => {
      put({ ...(store.get(reference) as Resource), ...change } as Resource);
    },
    puts: (reference) =>
      fake
        .callsTo('PUT', new RegExp(`/fhir/R4/${reference}$`))
        .map((call) => ({ ifMatch: header(call, 'if-match'), body: JSON.parse(call.body as string) as Appointment })),
    reads: (reference) => fake.callsTo('GET', new RegExp(`/fhir/R4/${reference}$`)).length,
  };
}
