/**
 * Test support (not part of the public surface): the whole chart page in a router, over the real
 * FhirClient and an in-memory answerer of its batches and searches.
 */
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Bundle, Patient, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { ChartPage } from './ChartPage';

export const patient: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { versionId: '1', lastUpdated: '2025-01-01T00:00:00Z' },
  name: [{ given: ['Wendy'], family: 'Littel' }],
  gender: 'female',
  birthDate: '2000-11-15',
};

const searchset = (resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((resource) => ({ resource, search: { mode: 'match' as const } })),
});

export const defaultRecords: Record<string, Resource[]> = {
  AllergyIntolerance: [
    {
      resourceType: 'AllergyIntolerance',
      id: 'a1',
      patient: { reference: 'Patient/p1' },
      code: { text: 'Allergy to penicillin' },
      clinicalStatus: { coding: [{ code: 'active' }] },
    },
  ],
  Condition: [
    {
      resourceType: 'Condition',
      id: 'c1',
      subject: { reference: 'Patient/p1' },
      code: { text: 'Essential hypertension' },
      clinicalStatus: { coding: [{ code: 'active' }] },
      category: [{ coding: [{ code: 'problem-list-item' }] }],
    },
  ],
  Task: [
    { resourceType: 'Task', id: 't1', status: 'ready', intent: 'order', code: { text: 'Call patient' } } as Resource,
  ],
};

/** The router's path, to see where a link led. */
function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

/** The chart at `path`; `records` answer each type's searches (all of them, whatever the query). */
export function renderChart(path: string, records: Record<string, Resource[]> = defaultRecords) {
  const fake = new FakeFetch();
  const answer = (url: string): Resource => {
    if (url === 'Patient/p1') return patient;
    if (url.startsWith('Patient/p1/_history')) return { ...searchset([patient]), type: 'history' };
    return searchset(records[url.split('?')[0] ?? ''] ?? []);
  };
  fake.on('POST', /\/fhir\/R4\/?$/, (call) => {
    const batch = JSON.parse(call.body as string) as Bundle;
    return jsonResponse({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: (batch.entry ?? []).map((entry) => ({
        resource: answer(decodeURIComponent(entry.request?.url ?? '')),
        response: { status: '200 OK' },
      })),
    });
  });
  fake.on('GET', /\/fhir\/R4\/.+/, (call) =>
    jsonResponse(answer(decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? ''))),
  );
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 20 });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <ShellClientContext.Provider value={client}>
          <ToastProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/Patient/:patientId/*" element={<ChartPage />} />
              </Routes>
              <Where />
            </MemoryRouter>
          </ToastProvider>
        </ShellClientContext.Provider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return fake;
}
