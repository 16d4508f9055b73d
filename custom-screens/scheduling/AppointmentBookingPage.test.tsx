import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Appointment, Bundle, OperationOutcome, Patient, Practitioner, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ToastProvider } from '../../src/shell/toasts';
import { AppointmentBookingPage, BOOKED_TOAST } from './AppointmentBookingPage';
import { bookingDraftKey } from './bookingDraftKey';
import { localDay } from '../../data-provider/rules';
import { frontDeskPolicy } from '../../config/access/demoAccessPolicies';

const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: 'alice',
  name: [{ given: ['Alice'], family: 'Carter' }],
};
const wendy: Patient = { resourceType: 'Patient', id: 'wendy', name: [{ given: ['Wendy'], family: 'Littel' }] };
const draftKey = bookingDraftKey('Practitioner/alice') as string;

const tomorrow = new Date();
tomorrow.setDate(tomorrow.getDate() + 1);
const day = localDay(tomorrow);
const tomorrowAt = (hours: number, minutes = 0) =>
  new Date(tomorrow.getFullYear(), tomorrow.getMonth(), tomorrow.getDate(), hours, minutes);

const searchset = (...resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource, search: { mode: 'match' } })),
});

/** The real client over a FakeFetch answering the page's calls: the patient, the two clash searches, the create. */
function bookingServer(options: { diary?: Appointment[]; diaryRefused?: boolean; refuse?: OperationOutcome } = {}) {
  const fake = new FakeFetch();
  fake.on('GET', /\/fhir\/R4\/Patient\/wendy$/, jsonResponse(wendy));
  fake.on('GET', /\/fhir\/R4\/Appointment\?/, (call) => {
    const actor = new URL(call.url).searchParams.get('actor');
    // The Here today list above the form: nobody checked in.
    if (!actor) return jsonResponse(searchset());
    if (options.diaryRefused) {
      return jsonResponse(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'forbidden', details: { text: 'Forbidden' } }],
        },
        403,
      );
    }
    const mine = (options.diary ?? []).filter((appointment) =>
      appointment.participant.some((participant) => participant.actor?.reference === actor),
    );
    return jsonResponse(searchset(...mine));
  });
  fake.on('POST', /\/fhir\/R4\/Appointment$/, (call) =>
    options.refuse
      ? jsonResponse(options.refuse, 400)
      : jsonResponse({ ...(JSON.parse(call.body as string) as Appointment), id: 'new-1' }, 201),
  );
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  vi.spyOn(client, 'getProfile').mockReturnValue(alice);
  const posted = () =>
    fake.callsTo('POST', /\/fhir\/R4\/Appointment$/).map((call) => JSON.parse(call.body as string) as Appointment);
  return { client, fake, posted };
}

/** The diary searches of the clash check (the page's Here today list searches Appointments too). */
const clashSearches = (fake: FakeFetch) =>
  fake.callsTo('GET', /Appointment\?/).filter((call) => new URL(call.url).searchParams.has('actor'));

function Landed() {
  const location = useLocation();
  return <p>Landed on {location.pathname}</p>;
}

function renderPage(client: FhirClient, path = '/appointments/new?patient=Patient/wendy') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <FhirClientContext.Provider value={client}>
        <ToastProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="/appointments/new" element={<AppointmentBookingPage />} />
              <Route path="/Patient/:patientId/*" element={<Landed />} />
            </Routes>
          </MemoryRouter>
        </ToastProvider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

const field = (name: RegExp) => screen.getByLabelText(name, { selector: 'input' });
const reason = () => screen.getByRole('textbox', { name: /^Reason/ });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Book appointment' }));

async function fillSlot(start = '09:00') {
  fireEvent.change(field(/^Date/), { target: { value: day } });
  fireEvent.change(field(/^Start time/), { target: { value: start } });
}

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('AppointmentBookingPage', () => {
  it('says under each field what is missing, and posts nothing', async () => {
    const server = bookingServer();
    renderPage(server.client, '/appointments/new');
    // The signed-in practitioner is the default clinician.
    expect(field(/^Clinician/)).toHaveValue('Alice Carter');
    submit();
    expect(await screen.findByText('Choose the patient')).toBeInTheDocument();
    expect(field(/^Patient/)).toHaveAccessibleDescription('Choose the patient');
    expect(field(/^Start time/)).toHaveAccessibleDescription('Start time is required');
    expect(field(/^Start time/)).toHaveAttribute('aria-invalid', 'true');
    // Focus goes to the first field to fix.
    expect(field(/^Patient/)).toHaveFocus();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clashSearches(server.fake)).toEqual([]);
    expect(server.posted()).toEqual([]);
  });

  it('does not take a front-desk Practitioner for the clinician: the desk chooses', () => {
    const server = bookingServer();
    const ben: Practitioner = { resourceType: 'Practitioner', id: 'ben', name: [{ given: ['Ben'], family: 'Okafor' }] };
    vi.spyOn(server.client, 'getProfile').mockReturnValue(ben);
    vi.spyOn(server.client, 'getAccessPolicy').mockReturnValue(frontDeskPolicy);
    renderPage(server.client, '/appointments/new');
    expect(field(/^Clinician/)).toHaveValue('');
  });

  it('refuses an end before the start, under End time', async () => {
    const server = bookingServer();
    renderPage(server.client);
    await fillSlot('10:00');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /^Duration/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Set an end time' }));
    fireEvent.change(field(/^End time/), { target: { value: '09:30' } });
    submit();
    await waitFor(() => expect(field(/^End time/)).toHaveAccessibleDescription('The end must be after the start'));
    expect(server.posted()).toEqual([]);
  });

  it('warns of a clash by name, then books anyway on request', async () => {
    const taken: Appointment = {
      resourceType: 'Appointment',
      id: 'taken',
      status: 'booked',
      start: tomorrowAt(9).toISOString(),
      end: tomorrowAt(9, 20).toISOString(),
      participant: [
        { actor: { reference: 'Patient/oscar', display: 'Oscar Other' }, status: 'accepted' },
        { actor: { reference: 'Practitioner/alice' }, status: 'accepted' },
      ],
    };
    const server = bookingServer({ diary: [taken] });
    renderPage(server.client);
    await waitFor(() => expect(field(/^Patient/)).toHaveValue('Wendy Littel'));
    await fillSlot('09:10');
    submit();
    const warning = await screen.findByRole('alert');
    expect(warning).toHaveTextContent(/Alice Carter already has Oscar Other at/);
    expect(server.posted()).toEqual([]);
    // Both diaries were looked at: the clinician's and the patient's.
    const actors = clashSearches(server.fake).map((call) => new URL(call.url).searchParams.get('actor'));
    expect(actors.sort()).toEqual(['Patient/wendy', 'Practitioner/alice']);

    fireEvent.click(screen.getByRole('button', { name: 'Book anyway' }));
    expect(await screen.findByText('Landed on /Patient/wendy/Appointment')).toBeInTheDocument();
    const [sent] = server.posted();
    expect(sent).toMatchObject({ status: 'booked', minutesDuration: 20 });
    expect(Date.parse(sent?.start ?? '')).toBe(tomorrowAt(9, 10).getTime());
  });

  it('says when the diaries could not be searched, and still lets the desk book', async () => {
    const server = bookingServer({ diaryRefused: true });
    renderPage(server.client);
    await waitFor(() => expect(field(/^Patient/)).toHaveValue('Wendy Littel'));
    await fillSlot('11:00');
    submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(/Clashes could not be checked/);
    expect(server.posted()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Book anyway' }));
    expect(await screen.findByText('Landed on /Patient/wendy/Appointment')).toBeInTheDocument();
    expect(server.posted()).toHaveLength(1);
  });

  it('books a free slot, says so and goes to the patient’s appointments; the draft is gone', async () => {
    const server = bookingServer();
    renderPage(server.client);
    await waitFor(() => expect(field(/^Patient/)).toHaveValue('Wendy Littel'));
    await fillSlot('11:00');
    expect(window.sessionStorage.getItem(draftKey)).toContain('11:00');
    submit();
    expect(await screen.findByText('Landed on /Patient/wendy/Appointment')).toBeInTheDocument();
    expect(await screen.findByText(BOOKED_TOAST)).toBeInTheDocument();
    const [sent] = server.posted();
    expect(sent?.participant).toEqual([
      { actor: { reference: 'Patient/wendy', display: 'Wendy Littel' }, required: 'required', status: 'accepted' },
      {
        actor: { reference: 'Practitioner/alice', display: 'Alice Carter' },
        required: 'required',
        status: 'accepted',
      },
    ]);
    expect(window.sessionStorage.getItem(draftKey)).toBeNull();
  });

  it('keeps everything on a refused save and shows the server’s issue under its field', async () => {
    const server = bookingServer({
      refuse: {
        resourceType: 'OperationOutcome',
        issue: [
          {
            severity: 'error',
            code: 'invalid',
            details: { text: 'Practitioner is not bookable' },
            expression: ['Appointment.participant[1].actor'],
          },
        ],
      },
    });
    renderPage(server.client);
    await waitFor(() => expect(field(/^Patient/)).toHaveValue('Wendy Littel'));
    await fillSlot('11:00');
    fireEvent.change(reason(), { target: { value: 'Knee pain' } });
    submit();
    await waitFor(() => expect(field(/^Clinician/)).toHaveAccessibleDescription('Practitioner is not bookable'));
    expect(screen.queryByText(/^Landed on/)).not.toBeInTheDocument();
    expect(field(/^Start time/)).toHaveValue('11:00');
    expect(reason()).toHaveValue('Knee pain');
    expect(window.sessionStorage.getItem(draftKey)).toContain('Knee pain');
  });

  it('finds the draft typed before a reload', () => {
    window.sessionStorage.setItem(
      draftKey,
      JSON.stringify({ date: day, startTime: '14:30', description: 'Annual review' }),
    );
    renderPage(bookingServer().client, '/appointments/new');
    expect(field(/^Start time/)).toHaveValue('14:30');
    expect(reason()).toHaveValue('Annual review');
  });
});
