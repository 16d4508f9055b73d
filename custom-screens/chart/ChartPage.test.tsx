import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Bundle, Patient, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { ChartPage } from './ChartPage';

const patient: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { versionId: '2', lastUpdated: '2025-02-01T00:00:00Z' },
  name: [{ given: ['Maria'], family: 'Lopez' }],
  gender: 'female',
  birthDate: '1972-03-12',
};
const firstVersion: Patient = {
  ...patient,
  meta: { versionId: '1', lastUpdated: '2025-01-01T00:00:00Z' },
  gender: 'male',
};
const tasks: Resource[] = [
  {
    resourceType: 'Task',
    id: 't1',
    status: 'ready',
    intent: 'order',
    priority: 'routine',
    code: { text: 'Routine follow-up' },
    for: { reference: 'Patient/p1' },
    authoredOn: '2025-03-01T00:00:00Z',
  } as Resource,
  {
    resourceType: 'Task',
    id: 't2',
    status: 'ready',
    intent: 'order',
    priority: 'stat',
    code: { text: 'Stat callback' },
    for: { reference: 'Patient/p1' },
    authoredOn: '2020-01-01T00:00:00Z',
  } as Resource,
];

const bundle = (type: Bundle['type'], resources: Resource[], included: Resource[] = []): Bundle => ({
  resourceType: 'Bundle',
  type,
  total: resources.length,
  entry: [
    ...resources.map((resource) => ({ resource, search: { mode: 'match' as const } })),
    ...included.map((resource) => ({ resource, search: { mode: 'include' as const } })),
  ],
});

// An imported patient's order and visit as Synthea writes them (synthetic data, Apache-2.0): the
// order points at a Medication and a Practitioner without naming either.
const importedOrder = {
  resourceType: 'MedicationRequest',
  id: 'mr1',
  status: 'active',
  intent: 'order',
  subject: { reference: 'Patient/p1' },
  medicationReference: { reference: 'Medication/simva' },
  requester: { reference: 'Practitioner/694a34a3-af6e-49a5-89e3-adc7235bc923' },
  authoredOn: '1977-07-30T21:51:36+00:00',
  dosageInstruction: [
    {
      sequence: 1,
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
      asNeededBoolean: false,
      doseAndRate: [{ doseQuantity: { value: 1 } }],
    },
  ],
} as Resource;
const orderIncludes = [
  {
    resourceType: 'Medication',
    id: 'simva',
    code: {
      coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '316672', display: 'Simvistatin 10 MG' }],
    },
  },
  {
    resourceType: 'Practitioner',
    id: '694a34a3-af6e-49a5-89e3-adc7235bc923',
    name: [{ family: 'Labadie', given: ['Rebecca'], prefix: ['Dr.'] }],
  },
] as Resource[];
const visit = {
  resourceType: 'Encounter',
  id: 'e1',
  status: 'finished',
  class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
  type: [
    {
      coding: [{ system: 'http://snomed.info/sct', code: '185349003', display: 'Encounter for check up (procedure)' }],
    },
  ],
  subject: { reference: 'Patient/p1' },
  period: { start: '1977-10-04T21:51:36+00:00', end: '1977-10-04T22:06:36+00:00' },
} as Resource;

/** The chart against the real FhirClient (100 ms auto-batching) over an in-memory answerer. */
function renderChart(path: string) {
  const fake = new FakeFetch();
  const answer = (url: string): { status: string; resource: Resource } => {
    if (url === 'Patient/p1') return { status: '200 OK', resource: patient };
    if (url.startsWith('Patient/p1/_history'))
      return { status: '200 OK', resource: bundle('history', [patient, firstVersion]) };
    if (url.startsWith('Task?')) return { status: '200 OK', resource: bundle('searchset', tasks) };
    if (url.startsWith('MedicationRequest?'))
      return {
        status: '200 OK',
        resource: bundle('searchset', [importedOrder], url.includes('_include=') ? orderIncludes : []),
      };
    if (url.startsWith('Encounter?')) return { status: '200 OK', resource: bundle('searchset', [visit]) };
    if (url.startsWith('Device?'))
      return {
        status: '403 Forbidden',
        resource: { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'forbidden' }] },
      };
    return { status: '200 OK', resource: bundle('searchset', []) };
  };
  fake.on('POST', /\/fhir\/R4\/?$/, (call) => {
    const batch = JSON.parse(call.body as string) as Bundle;
    return jsonResponse({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: (batch.entry ?? []).map((entry) => {
        const { status, resource } = answer(decodeURIComponent(entry.request?.url ?? ''));
        return { resource, response: { status } };
      }),
    });
  });
  fake.on('GET', /\/fhir\/R4\/[A-Za-z]+\?/, (call) => {
    const { resource } = answer(decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? ''));
    return jsonResponse(resource);
  });
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 100 });
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

describe('ChartPage', { timeout: 30_000 }, () => {
  it('sends the patient read, the summary and the timeline in one batch, then draws them', async () => {
    const fake = renderChart('/Patient/p1');
    const timeline = await screen.findByTestId('timeline');
    await within(timeline).findByText('Stat callback');
    const batches = fake.callsTo('POST', /\/fhir\/R4\/?$/);
    expect(batches).toHaveLength(1);
    const urls = ((JSON.parse(batches[0]!.body as string) as Bundle).entry ?? []).map(
      (entry) => decodeURIComponent(entry.request?.url ?? '').split('?')[0],
    );
    expect(new Set(urls)).toEqual(
      new Set([
        'Patient/p1',
        'Patient/p1/_history',
        'Communication',
        'Device',
        'DeviceRequest',
        'DiagnosticReport',
        'Media',
        'ServiceRequest',
        'Task',
        'AllergyIntolerance',
        'Condition',
        'MedicationRequest',
        'Observation',
        'Appointment',
        'Encounter',
        // The header's look-up of the general practitioner (a search: it starts before the patient arrives).
        'Patient',
        // The Apps menu's search of the project's SMART apps rides in the same batch.
        'ClientApplication',
      ]),
    );
    expect(fake.calls.filter((call) => call.method === 'GET' && call.url.includes('/fhir/R4/'))).toEqual([]);
  });

  it('orders the timeline stat first, shows a version diff, and names what the user may not read', async () => {
    renderChart('/Patient/p1/timeline');
    const timeline = await screen.findByTestId('timeline');
    await within(timeline).findByText('Stat callback');
    const entries = within(timeline)
      .getAllByRole('article')
      .map((article) => article.getAttribute('aria-label'));
    expect(entries[0]).toBe('Task: Stat callback');
    // Then newest first: the routine task (March) before the patient's update (February) and creation.
    expect(entries.slice(1)).toEqual(['Task: Routine follow-up', 'Patient record: updated', 'Patient record: created']);
    const changes = within(timeline).getByRole('table', { name: 'Changes' });
    // The field as people read it, the stored path on hover.
    expect(within(changes).getByText('Gender')).toHaveAttribute('title', 'gender');
    expect(screen.getByText('Not shown under your access policy: devices.')).toBeTruthy();
  });

  it('keeps the frame and lists the tab scoped to the patient when a tab is chosen', async () => {
    const fake = renderChart('/Patient/p1');
    await screen.findByTestId('timeline');
    const sidebar = screen.getByRole('complementary', { name: 'Patient summary' });
    await userEvent.click(screen.getByRole('tab', { name: 'Tasks' }));
    const table = await screen.findByRole('table', { name: 'Tasks' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('stat')).toBeTruthy();
    // The same sidebar element: the frame was not mounted again.
    expect(screen.getByRole('complementary', { name: 'Patient summary' })).toBe(sidebar);
    const search = fake.calls
      .flatMap((call) =>
        call.method === 'POST'
          ? ((JSON.parse(call.body as string) as Bundle).entry ?? []).map((e) => e.request?.url ?? '')
          : [call.url],
      )
      .map((url) => decodeURIComponent(url))
      // The last: the summary's count of open tasks searched the patient's tasks first.
      .findLast((url) => url.includes('Task?patient='));
    expect(search).toMatch(
      /Task\?patient=Patient\/p1&_sort=-authored-on,-_lastUpdated&_count=20&_offset=0&_total=accurate/,
    );
  });

  it('names an imported order by its Medication and prescriber, and reads its structured dosage', async () => {
    const fake = renderChart('/Patient/p1/MedicationRequest');
    const table = await screen.findByRole('table', { name: 'Meds' });
    const row = within(table).getAllByRole('row')[1];
    expect(await within(row).findByText('Simvistatin 10 MG')).toBeTruthy();
    expect(row).toHaveTextContent(/Rebecca Labadie/);
    expect(row).toHaveTextContent('1 dose, once a day');
    expect(row).not.toHaveTextContent('694a34a3');
    const search = fake.calls
      .flatMap((call) =>
        call.method === 'POST'
          ? ((JSON.parse(call.body as string) as Bundle).entry ?? []).map((e) => e.request?.url ?? '')
          : [call.url],
      )
      .map((url) => decodeURIComponent(url))
      .find((url) => url.includes('MedicationRequest?patient='));
    expect(search).toContain('_sort=-authoredon,-_lastUpdated');
    expect(search).toContain('_include=MedicationRequest:medication&_include=MedicationRequest:requester');
  });

  it('lists the visits at `Encounter` (where "documented visits" leads), not the visit note', async () => {
    renderChart('/Patient/p1/Encounter');
    const table = await screen.findByRole('table', { name: 'Encounter' });
    expect(await within(table).findByText('Encounter for check up (procedure)')).toBeTruthy();
    expect(within(table).getByText(/4 Oct 1977/)).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Encounter' })).toHaveAttribute('aria-selected', 'false');
  });

  it('says "Patient ID not found" without a patient id', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/Patient']}>
          <Routes>
            <Route path="/Patient/*" element={<ChartPage />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByText('Patient ID not found')).toBeTruthy();
  });
});
