/**
 * Test support (not part of the public surface): the whole chart against the real FhirClient over a
 * small versioned FHIR store — reads, searches (by type, with the status filter), batches, and PUT
 * with If-Match answered 412 on a version mismatch, as the server does — so tests see what goes
 * over the wire and what a conflicting change does.
 */
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Bundle, OperationOutcome, Patient, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../../data-provider/client';
import { FakeFetch, jsonResponse, type RecordedCall } from '../../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../../src/resources/useFhirClient';
import { ShellClientContext } from '../../../src/shell/shellClient';
import { ToastProvider } from '../../../src/shell/toasts';
import { ChartPage } from '../ChartPage';

export interface ChartServer {
  client: FhirClient;
  fake: FakeFetch;
  /** Stores resources as the server has them now, each at version 1 (or the next, if stored before). */
  put(...resources: Resource[]): void;
  get<T extends Resource>(reference: string): T;
  /** Someone else's write: the stored version moves on, so a write sending the old one gets a 412. */
  changeBehindTheClient(reference: string, change: Partial<Resource>): void;
  /** The next PUT of `reference` is refused with this OperationOutcome text (status 400). */
  refuseNextWrite(reference: string, text: string): void;
  /** The PUTs sent to `reference` (or all), with their If-Match header and body. */
  puts(reference?: string): { url: string; ifMatch?: string; body: Resource }[];
  /** The searches asked (batched or not), decoded, e.g. `Appointment?patient=…`. */
  searches(): string[];
}

type Answer = { status: number; body: Resource };

/** A request header by name, whatever case the fetch in use keeps names in. */
const header = (call: RecordedCall, name: string): string | undefined =>
  Object.entries(call.headers).find(([key]) => key.toLowerCase() === name)?.[1];

const outcome = (code: string, text: string): OperationOutcome => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: code as 'invalid', details: { text } }],
});

export function chartServer(): ChartServer {
  const fake = new FakeFetch();
  const store = new Map<string, Resource>();
  const refusals = new Map<string, string>();
  const asked: string[] = [];
  const put = (resource: Resource) => {
    const key = `${resource.resourceType}/${resource.id}`;
    const version = Number(store.get(key)?.meta?.versionId ?? 0) + 1;
    const stored = { ...resource, meta: { ...resource.meta, versionId: String(version) } } as Resource;
    store.set(key, stored);
    return stored;
  };

  const search = (type: string, params: URLSearchParams): Bundle => {
    const statuses = params.get('status')?.split(',');
    const id = params.get('_id');
    // The summary's upcoming appointments: `date=ge{day}` on the start.
    const from = params.get('date')?.replace(/^ge/, '');
    const matches = [...store.values()].filter(
      (resource) =>
        resource.resourceType === type &&
        (!id || resource.id === id) &&
        (!statuses || statuses.includes((resource as { status?: string }).status ?? '')) &&
        (!from || ((resource as { start?: string }).start ?? '') >= from),
    );
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total: matches.length,
      entry: matches.map((resource) => ({ resource, search: { mode: 'match' } })),
    };
  };

  const answerGet = (relative: string): Answer => {
    asked.push(relative);
    const [path = '', query = ''] = relative.split('?');
    const [type = '', id, history] = path.split('/');
    if (history === '_history') return { status: 200, body: { resourceType: 'Bundle', type: 'history', entry: [] } };
    if (!id) return { status: 200, body: search(type, new URLSearchParams(query)) };
    const found = store.get(`${type}/${id}`);
    return found ? { status: 200, body: found } : { status: 404, body: outcome('not-found', 'Not found') };
  };

  const answerPut = (call: RecordedCall): Answer => {
    const key = decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? '');
    const current = store.get(key);
    const ifMatch = header(call, 'if-match');
    const refusal = refusals.get(key);
    if (refusal) {
      refusals.delete(key);
      return { status: 400, body: outcome('invalid', refusal) };
    }
    if (ifMatch && ifMatch !== `W/"${current?.meta?.versionId ?? ''}"`) {
      return {
        status: 412,
        body: outcome(
          'conflict',
          `Version mismatch: If-Match ${ifMatch} but the current version is ${current?.meta?.versionId ?? 'none'}`,
        ),
      };
    }
    return { status: 200, body: put(JSON.parse(call.body as string) as Resource) };
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
    const { status, body } = answerPut(call);
    return jsonResponse(body, status);
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
    refuseNextWrite: (reference, text) => refusals.set(reference, text),
    puts: (reference) =>
      fake
        .callsTo('PUT', reference ? new RegExp(`/fhir/R4/${reference}$`) : /\/fhir\/R4\//)
        .map((call) => ({ url: call.url, ifMatch: header(call, 'if-match'), body: JSON.parse(call.body as string) })),
    searches: () => asked.filter((relative) => relative.includes('?')),
  };
}

/** The chart of `patient` at `path` (default its timeline), as the app's route renders it; and its query cache. */
export function renderChart(server: ChartServer, patient: Patient, path = `/Patient/${patient.id}`) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <FhirClientContext.Provider value={server.client}>
        <ShellClientContext.Provider value={server.client}>
          <ToastProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/Patient/:patientId/*" element={<ChartPage />} />
              </Routes>
            </MemoryRouter>
          </ToastProvider>
        </ShellClientContext.Provider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { ...result, queryClient };
}
