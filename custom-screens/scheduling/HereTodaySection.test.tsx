import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Appointment, Bundle, Resource } from '@medplum/fhirtypes';
import { frontDeskPolicy } from '../../config/access/demoAccessPolicies';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ToastProvider } from '../../src/shell/toasts';
import { HereTodaySection, NOBODY_HERE } from './HereTodaySection';

/** "Now": 10:00 local time on 10 March 2026 (only Date is faked: timers stay real). */
const NOW = new Date(2026, 2, 10, 10, 0);
const at = (hours: number, minutes = 0) => new Date(2026, 2, 10, hours, minutes).toISOString();

function appointment(
  id: string,
  status: Appointment['status'],
  start: string,
  more: Partial<Appointment> = {},
): Appointment {
  return {
    resourceType: 'Appointment',
    id,
    status,
    start,
    end: new Date(Date.parse(start) + 20 * 60_000).toISOString(),
    description: 'Blood pressure check',
    meta: { versionId: '3', lastUpdated: at(9, 59) },
    participant: [
      { actor: { reference: `Patient/p-${id}` }, status: 'accepted' },
      { actor: { reference: 'Practitioner/alice', display: 'Dr. Alice Carter' }, status: 'accepted' },
    ],
    ...more,
  };
}

const wendy = appointment('wendy', 'arrived', at(9, 30));
const oscar = appointment('oscar', 'checked-in', at(10, 30), { description: 'Follow-up visit' });
const people: Resource[] = [
  { resourceType: 'Patient', id: 'p-wendy', name: [{ given: ['Wendy'], family: 'Littel' }] },
  { resourceType: 'Patient', id: 'p-oscar', name: [{ given: ['Oscar'], family: 'Other' }] },
];

const history = (current: Appointment, arrivedAt: string): Bundle => ({
  resourceType: 'Bundle',
  type: 'history',
  entry: [
    { resource: { ...current, meta: { versionId: '3', lastUpdated: at(9, 59) } } },
    { resource: { ...current, meta: { versionId: '2', lastUpdated: arrivedAt } } },
    { resource: { ...current, status: 'booked', meta: { versionId: '1', lastUpdated: at(8, 0) } } },
  ],
});

/** The real client over a FakeFetch: the Here today search, the histories, and PUTs of appointments. */
function clinic(initial: Appointment[]) {
  let here = [...initial];
  const fake = new FakeFetch();
  fake.on('GET', /\/fhir\/R4\/Appointment\?/, () =>
    jsonResponse({
      resourceType: 'Bundle',
      type: 'searchset',
      entry: [
        ...here.map((resource) => ({ resource, search: { mode: 'match' } })),
        ...people.map((resource) => ({ resource, search: { mode: 'include' } })),
      ],
    }),
  );
  fake.on('GET', /\/fhir\/R4\/Appointment\/wendy\/_history$/, jsonResponse(history(wendy, at(9, 42))));
  fake.on('GET', /\/fhir\/R4\/Appointment\/oscar\/_history$/, jsonResponse(history(oscar, at(9, 20))));
  fake.on('PUT', /\/fhir\/R4\/Appointment\/[a-z]+$/, (call) => {
    const saved = JSON.parse(call.body as string) as Appointment;
    here = here.filter((stored) => stored.id !== saved.id);
    return jsonResponse({ ...saved, meta: { versionId: '4' } });
  });
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  return {
    client,
    fake,
    /** Another desk checks a patient in. */
    checkIn: (arrived: Appointment) => here.push(arrived),
    searches: () => fake.callsTo('GET', /\/fhir\/R4\/Appointment\?/),
  };
}

function renderSection(client: FhirClient, policy?: AccessPolicy) {
  vi.spyOn(client, 'getAccessPolicy').mockReturnValue(policy);
  vi.spyOn(client, 'isSuperAdmin').mockReturnValue(false);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <ToastProvider>
          <MemoryRouter>
            <HereTodaySection />
          </MemoryRouter>
        </ToastProvider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

const rows = () => within(screen.getByRole('list', { name: 'Here today' })).getAllByRole('listitem');
const row = (name: string) => screen.getByRole('listitem', { name });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('HereTodaySection', () => {
  it("asks for today's checked-in appointments and lists them longest wait first", async () => {
    const server = clinic([wendy, oscar]);
    renderSection(server.client);
    await waitFor(() => expect(rows()).toHaveLength(2));
    const query = new URL(server.searches()[0]?.url ?? '').searchParams;
    expect(query.get('status')).toBe('arrived,checked-in');
    expect(query.getAll('date')).toHaveLength(2);
    expect(query.get('_include')).toBe('Appointment:actor');
    // Oscar came at 9:20 for 10:30, Wendy at 9:42 for 9:30: Oscar has waited longest.
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Oscar Other'));
    expect(screen.getByTestId('here-today-count')).toHaveTextContent('2 patients checked in, longest wait first');

    const wendyRow = row('Wendy Littel');
    expect(within(wendyRow).getByRole('link', { name: 'Wendy Littel' })).toHaveAttribute('href', '/Patient/p-wendy');
    expect(wendyRow).toHaveTextContent(/arrived 9:42\s?AM, waiting 18 min/);
    expect(wendyRow).toHaveTextContent(/9:30\s?AM appointment with Dr\. Alice Carter · Blood pressure check/);
    const chip = within(wendyRow).getByTestId('appointment-status');
    expect(chip).toHaveTextContent('Arrived');
    expect(chip).toHaveAttribute('data-status-color', 'blue');
    expect(within(row('Oscar Other')).getByTestId('appointment-status')).toHaveTextContent('Checked in');
  });

  it('offers the next steps the appointment allows: the visit note, Mark fulfilled, No-show once its time has come', async () => {
    const server = clinic([wendy, oscar]);
    renderSection(server.client);
    await waitFor(() => expect(rows()).toHaveLength(2));
    const buttons = (name: string) =>
      [...within(row(name)).getByRole('group').querySelectorAll('a, button')].map((element) => element.textContent);
    expect(buttons('Wendy Littel')).toEqual(['Visit note', 'Mark fulfilled', 'No-show']);
    // Oscar is early: a no-show cannot be told before the appointment's time.
    expect(buttons('Oscar Other')).toEqual(['Visit note', 'Mark fulfilled']);
    expect(within(row('Wendy Littel')).getByRole('link', { name: 'Visit note' })).toHaveAttribute(
      'href',
      '/Patient/p-wendy/encounter',
    );
  });

  it('Mark fulfilled writes the appointment and the patient leaves the list', async () => {
    const server = clinic([wendy, oscar]);
    renderSection(server.client);
    await waitFor(() => expect(rows()).toHaveLength(2));
    fireEvent.click(within(row('Wendy Littel')).getByRole('button', { name: 'Mark fulfilled' }));
    expect(await screen.findByText('Marked fulfilled')).toBeInTheDocument();
    const [put] = server.fake.callsTo('PUT', /Appointment\/wendy$/);
    expect(JSON.parse(put?.body as string)).toMatchObject({ status: 'fulfilled' });
    expect(put?.headers['If-Match'] ?? put?.headers['if-match']).toBe('W/"3"');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveTextContent('Oscar Other');
  });

  it('the front desk sees who is here and closes visits, but is not offered the visit note', async () => {
    const server = clinic([wendy]);
    renderSection(server.client, frontDeskPolicy);
    await waitFor(() => expect(rows()).toHaveLength(1));
    const group = within(row('Wendy Littel')).getByRole('group');
    expect(within(group).queryByRole('link', { name: 'Visit note' })).not.toBeInTheDocument();
    expect(within(group).getByRole('button', { name: 'Mark fulfilled' })).toBeInTheDocument();
  });

  it('says so when nobody has checked in, and reads again when the window is back in focus', async () => {
    const server = clinic([]);
    renderSection(server.client);
    expect(await screen.findByText(NOBODY_HERE)).toBeInTheDocument();
    const before = server.searches().length;
    server.checkIn(wendy);
    act(() => {
      window.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(server.searches().length).toBeGreaterThan(before));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.queryByText(NOBODY_HERE)).not.toBeInTheDocument();
  });
});
