/**
 * Test support (not part of the public surface): the whole chart against the real FhirClient (its
 * 100 ms auto-batching) over an in-memory server that enforces an access policy's types as the
 * real one does — a search of a type the policy does not list is a 403 "Forbidden: …".
 */
import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { AccessPolicy, Bundle, OperationOutcome, Patient, Resource } from '@medplum/fhirtypes';
import { canReadResourceType } from '../../data-provider/access';
import { FhirClient, type ProfileResource } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { ChartPage } from './ChartPage';

export { clinicianPolicy, frontDeskPolicy, patientPortalPolicy } from './accessPolicyFixtures';

export const chartPatient: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { versionId: '1', lastUpdated: '2026-11-01T09:00:00Z' },
  name: [{ given: ['Wendy'], family: 'Littel' }],
  gender: 'female',
  birthDate: '2000-11-15',
};

/** The patient's records on the server, by type (Wendy's, as the demo seeds them). */
export const chartRecords: Resource[] = [
  {
    resourceType: 'AllergyIntolerance',
    id: 'a1',
    patient: { reference: 'Patient/p1' },
    code: { text: 'Allergy to penicillin' },
    clinicalStatus: { coding: [{ code: 'active' }] },
  } as Resource,
  {
    resourceType: 'Task',
    id: 't1',
    status: 'ready',
    intent: 'order',
    code: { text: 'Review lab order' },
    for: { reference: 'Patient/p1' },
    authoredOn: '2026-11-21T09:00:00Z',
  } as Resource,
  {
    resourceType: 'Task',
    id: 't2',
    status: 'requested',
    intent: 'order',
    code: { text: 'Call patient to confirm appointment' },
    for: { reference: 'Patient/p1' },
    authoredOn: '2026-11-18T09:00:00Z',
  } as Resource,
  {
    resourceType: 'Communication',
    id: 'c1',
    status: 'completed',
    subject: { reference: 'Patient/p1' },
    sender: { reference: 'Practitioner/alice', display: 'Dr. Alice Carter' },
    sent: '2026-11-20T10:00:00Z',
    payload: [{ contentString: 'Your blood test is ordered.' }],
  } as Resource,
  {
    resourceType: 'DiagnosticReport',
    id: 'r1',
    status: 'final',
    code: { text: 'Complete blood count' },
    subject: { reference: 'Patient/p1' },
    issued: '2016-12-28T22:06:00Z',
  } as Resource,
];

export interface ChartCaller {
  /** Undefined: a member without a policy (full access in the project). */
  policy?: AccessPolicy;
  /** A super admin: the server enforces no policy for them. */
  superAdmin?: boolean;
  profile?: ProfileResource;
}

function forbidden(interaction: string, type: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [
      {
        severity: 'error',
        code: 'forbidden',
        details: { text: `Forbidden: your access policy does not allow ${interaction} of ${type}` },
      },
    ],
  };
}

function searchset(resources: Resource[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: resources.length,
    entry: resources.map((resource) => ({ resource, search: { mode: 'match' as const } })),
  };
}

/** The chart at `path` as `caller` sees it; answers the fake server, to see what was asked. */
export function renderChartAs(caller: ChartCaller, path: string): FakeFetch {
  const fake = new FakeFetch();
  const enforced = caller.superAdmin ? undefined : caller.policy;
  const answer = (url: string): { status: number; resource: Resource } => {
    const type = /^([A-Za-z]+)/.exec(url)?.[1] ?? '';
    if (!canReadResourceType(enforced, type)) return { status: 403, resource: forbidden('search', type) };
    if (url === 'Patient/p1') return { status: 200, resource: chartPatient };
    if (url.startsWith('Patient/p1/_history'))
      return { status: 200, resource: { ...searchset([chartPatient]), type: 'history' } };
    return { status: 200, resource: searchset(chartRecords.filter((record) => record.resourceType === type)) };
  };
  fake.on('POST', /\/fhir\/R4\/?$/, (call) => {
    const batch = JSON.parse(call.body as string) as Bundle;
    return jsonResponse({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: (batch.entry ?? []).map((entry) => {
        const { status, resource } = answer(decodeURIComponent(entry.request?.url ?? ''));
        return { resource, response: { status: status === 200 ? '200 OK' : '403 Forbidden' } };
      }),
    });
  });
  fake.on('GET', /\/fhir\/R4\/[A-Za-z]+/, (call) => {
    const { status, resource } = answer(decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? ''));
    return jsonResponse(resource, status);
  });
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 100 });
  vi.spyOn(client, 'getAccessPolicy').mockReturnValue(caller.policy);
  vi.spyOn(client, 'isSuperAdmin').mockReturnValue(caller.superAdmin ?? false);
  vi.spyOn(client, 'getProfile').mockReturnValue(caller.profile);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <ShellClientContext.Provider value={client}>
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
  return fake;
}

/** The types of every request the chart sent, in batches or on their own. */
export function requestedTypes(fake: FakeFetch): string[] {
  const urls = fake.calls.flatMap((call) =>
    call.method === 'POST' && /\/fhir\/R4\/?$/.test(call.url)
      ? ((JSON.parse(call.body as string) as Bundle).entry ?? []).map((entry) => entry.request?.url ?? '')
      : [call.url.split('/fhir/R4/')[1] ?? ''],
  );
  // Resource types only: the shell's own calls (its session, `/auth/…`, operations on the base)
  // name no type, and a test file sharing its worker may have left the shell in another state.
  const types = urls.map((url) => /^([A-Z][A-Za-z]+)/.exec(url)?.[1]).filter((type) => type !== undefined);
  return [...new Set(types)].sort();
}
