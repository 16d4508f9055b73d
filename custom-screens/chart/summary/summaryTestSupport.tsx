/**
 * Test support (not part of the public surface): the summary rendered against a small in-memory
 * FHIR answerer behind the real FhirClient, so tests see what goes over the wire.
 */
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Bundle, Patient, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../../data-provider/client';
import { FakeFetch, jsonResponse, type RecordedCall } from '../../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../../src/resources/useFhirClient';
import { ToastProvider } from '../../../src/shell/toasts';
import { PatientSummary } from './PatientSummary';

export const base = 'https://hearth.test/';

export const patient: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  name: [{ given: ['Maria'], family: 'Lopez' }],
  birthDate: '1972-03-12',
  gender: 'female',
};

export interface SummaryServer {
  client: FhirClient;
  fake: FakeFetch;
  /** Resources by type, as the searches answer them. */
  store: Map<string, Resource[]>;
  /** Resources a search of the keyed type brings along when it asks for `_include` (a Medication). */
  included: Map<string, Resource[]>;
  posted(type: string): Resource[];
  /** Bodies of the next writes of `type` fail with this OperationOutcome (status 400). */
  failWrites(type: string, issues: { expression?: string[]; text: string }[]): void;
  /** Searches of `type` sent on their own (not in a batch, as suggestions are typed) fail with a 400. */
  failSearches(type: string): void;
  /**
   * Searches whose decoded URL (`Observation?subject=…&code=…`) matches `pattern` are answered with
   * these matches instead of the store's (once the promise settles, if one is given: a slow server),
   * or fail with a 400 ('fail'), alone or in a batch.
   */
  answerSearches(pattern: RegExp, answer: Resource[] | Promise<Resource[]> | 'fail'): void;
}

function searchBundle(resources: Resource[], included: Resource[] = []): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [
      ...resources.map((resource) => ({ resource, search: { mode: 'match' as const } })),
      ...included.map((resource) => ({ resource, search: { mode: 'include' as const } })),
    ],
  };
}

export function summaryServer(options: { autoBatchTime?: number } = {}): SummaryServer {
  const fake = new FakeFetch();
  const store = new Map<string, Resource[]>();
  const included = new Map<string, Resource[]>();
  const special: { pattern: RegExp; answer: Resource[] | Promise<Resource[]> | 'fail' }[] = [];
  const specialFor = (url: string) => {
    const decoded = decodeURIComponent(url.replace(/^.*\/fhir\/R4\//, ''));
    return special.find((entry) => entry.pattern.test(decoded))?.answer;
  };
  const answer = async (type: string, url: string) => {
    const matches = specialFor(url);
    if (matches && matches !== 'fail') return searchBundle(await matches);
    return searchBundle(store.get(type) ?? [], url.includes('_include=') ? included.get(type) : undefined);
  };
  const refusal = {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'invalid', details: { text: 'No' } }],
  } as const;
  const failures = new Map<string, { expression?: string[]; text: string }[]>();
  const failingSearches = new Set<string>();
  let nextId = 1;
  const typeOf = (url: string) => /\/fhir\/R4\/([A-Za-z]+)/.exec(url)?.[1] ?? '';
  const write = (call: RecordedCall) => {
    const type = typeOf(call.url);
    const failure = failures.get(type);
    if (failure) {
      failures.delete(type);
      return jsonResponse(
        {
          resourceType: 'OperationOutcome',
          issue: failure.map((f) => ({
            severity: 'error',
            code: 'invalid',
            details: { text: f.text },
            expression: f.expression,
          })),
        },
        400,
      );
    }
    const body = JSON.parse(call.body as string) as Resource;
    const saved = {
      ...body,
      id: body.id ?? `new-${nextId++}`,
      meta: { versionId: '1', lastUpdated: new Date().toISOString() },
    };
    const list = (store.get(type) ?? []).filter((r) => r.id !== saved.id);
    store.set(type, [saved as Resource, ...list]);
    return jsonResponse(saved, call.method === 'POST' ? 201 : 200);
  };
  fake.on('GET', /\/fhir\/R4\/[A-Za-z]+\?/, (call) =>
    failingSearches.has(typeOf(call.url)) || specialFor(call.url) === 'fail'
      ? jsonResponse(refusal, 400)
      : answer(typeOf(call.url), call.url).then((bundle) => jsonResponse(bundle)),
  );
  fake.on('POST', /\/fhir\/R4\/?$/, async (call) => {
    const batch = JSON.parse(call.body as string) as Bundle;
    return jsonResponse({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: await Promise.all(
        (batch.entry ?? []).map(async (entry) => {
          const url = entry.request?.url ?? '';
          if (specialFor(url) === 'fail') return { resource: refusal, response: { status: '400 Bad Request' } };
          return { resource: await answer(/^([A-Za-z]+)/.exec(url)?.[1] ?? '', url), response: { status: '200 OK' } };
        }),
      ),
    });
  });
  fake.on('POST', /\/fhir\/R4\/[A-Za-z]+$/, write);
  fake.on('PUT', /\/fhir\/R4\/[A-Za-z]+\/[^/]+$/, write);
  const client = new FhirClient({ baseUrl: base, fetch: fake.fetch, autoBatchTime: options.autoBatchTime ?? 0 });
  return {
    client,
    fake,
    store,
    included,
    posted: (type) =>
      fake.callsTo('POST', new RegExp(`/fhir/R4/${type}$`)).map((call) => JSON.parse(call.body as string) as Resource),
    failWrites: (type, issues) => failures.set(type, issues),
    failSearches: (type) => failingSearches.add(type),
    answerSearches: (pattern, answer) => special.push({ pattern, answer }),
  };
}

/** The summary rendered; `showPatient` hands it a new version of the patient (as a save in the chart does). */
export function renderSummary(
  server: SummaryServer,
  props: { appointmentsHref?: string; visitsHref?: string; tasksHref?: string; patient?: Patient } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (shown: Patient) => (
    <QueryClientProvider client={queryClient}>
      <FhirClientContext.Provider value={server.client}>
        <ToastProvider>
          <PatientSummary {...props} patient={shown} />
        </ToastProvider>
      </FhirClientContext.Provider>
    </QueryClientProvider>
  );
  const result = render(tree(props.patient ?? patient));
  return { ...result, showPatient: (next: Patient) => result.rerender(tree(next)) };
}
