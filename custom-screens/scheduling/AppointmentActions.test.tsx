import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Appointment, Patient } from '@medplum/fhirtypes';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourcePage } from '../../src/resources/ResourcePage';
import { ResourceVersionPage } from '../../src/resources/ResourceVersionPage';
import { setSchemaLoader } from '../../src/resources/typeSchema';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { appointmentServer, type AppointmentServer } from './appointmentTestServer';

/** "Now" in every test: noon local time on 10 March 2026 (only Date is faked: timers stay real). */
const NOW = new Date(2026, 2, 10, 12, 0);
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 2, day, hours, minutes).toISOString();

const wendy: Patient = { resourceType: 'Patient', id: 'p1', name: [{ given: ['Wendy'], family: 'Littel' }] };

function appointment(
  status: Appointment['status'],
  slot?: [string, string],
  more: Partial<Appointment> = {},
): Appointment {
  return {
    resourceType: 'Appointment',
    id: 'a1',
    status,
    ...(slot ? { start: slot[0], end: slot[1] } : {}),
    description: 'Blood pressure check',
    participant: [
      { actor: { reference: 'Patient/p1', display: 'Wendy Littel' }, status: 'needs-action' },
      { actor: { reference: 'Practitioner/alice', display: 'Alice Carter' }, status: 'accepted' },
    ],
    ...more,
  };
}

const TOMORROW: [string, string] = [at(11, 9), at(11, 9, 20)];
const LATER_TODAY: [string, string] = [at(10, 15), at(10, 15, 20)];
const LAST_WEEK: [string, string] = [at(3, 9), at(3, 9, 20)];

function serverWith(stored: Appointment, policy?: AccessPolicy): AppointmentServer {
  const server = appointmentServer();
  server.put(wendy, stored);
  setSchemaLoader(server.client, new SchemaLoader(recordedSource()));
  vi.spyOn(server.client, 'getAccessPolicy').mockReturnValue(policy);
  vi.spyOn(server.client, 'isSuperAdmin').mockReturnValue(false);
  return server;
}

/** The app's resource routes: the appointment's Details tab (the default), as at `/Appointment/a1`. */
function renderAppointment(server: AppointmentServer, path = '/Appointment/a1') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={server.client}>
        <ShellClientContext.Provider value={server.client}>
          <ToastProvider>
            <MemoryRouter initialEntries={[path]}>
              <Routes>
                <Route path="/:resourceType/:id/_history/:versionId" element={<ResourceVersionPage />} />
                <Route path="/:resourceType/:id/*" element={<ResourcePage />} />
                {/* The chart's record routes (custom-screens/chart/ChartTabRoutes.tsx) render the same page. */}
                <Route path="/Patient/:patientId/:resourceType/:id/*" element={<ResourcePage />} />
              </Routes>
            </MemoryRouter>
          </ToastProvider>
        </ShellClientContext.Provider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

const panel = () => screen.findByRole('region', { name: 'Appointment' });
const chip = () => screen.getByTestId('appointment-status');
const actionNames = async () => {
  const region = await panel();
  return within(region)
    .queryAllByRole('button')
    .map((button) => button.textContent);
};
const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('AppointmentActions', { timeout: 30_000 }, () => {
  it('books a request: PUT with the version read, "Appointment booked", then the booked actions', async () => {
    const server = serverWith(appointment('proposed', TOMORROW));
    renderAppointment(server);
    expect(await actionNames()).toEqual(['Book', 'Decline']);
    expect(chip()).toHaveTextContent('Requested');
    click('Book');
    expect(await screen.findByText('Appointment booked')).toBeInTheDocument();
    const [sent] = server.puts('Appointment/a1');
    expect(sent.ifMatch).toBe('W/"1"');
    expect(sent.body.status).toBe('booked');
    expect(sent.body.participant.map((participant) => participant.status)).toEqual(['accepted', 'accepted']);
    expect(sent.body.description).toBe('Blood pressure check');
    await waitFor(() => expect(chip()).toHaveTextContent('Booked'));
    expect(await actionNames()).toEqual(['Cancel appointment']);
  });

  it('a request without a time: says so, links to the Edit tab, and offers Decline only', async () => {
    const server = serverWith(appointment('proposed'));
    renderAppointment(server);
    expect(await actionNames()).toEqual(['Decline']);
    const region = await panel();
    expect(region).toHaveTextContent('This request has no start and end yet, so it cannot be booked.');
    expect(within(region).getByRole('link', { name: 'Edit tab' })).toHaveAttribute('href', '/Appointment/a1/edit');
  });

  it('in the chart, the Edit tab link stays in the chart', async () => {
    const server = serverWith(appointment('proposed'));
    renderAppointment(server, '/Patient/p1/Appointment/a1/details');
    const region = await panel();
    expect(within(region).getByRole('link', { name: 'Edit tab' })).toHaveAttribute(
      'href',
      '/Patient/p1/Appointment/a1/edit',
    );
  });

  it('declines a request with a reason: cancelled, "Declined by the clinic", participants declined', async () => {
    const server = serverWith(appointment('proposed', TOMORROW));
    renderAppointment(server);
    await panel();
    click('Decline');
    const dialog = await screen.findByRole('dialog', { name: 'Decline this request?' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Reason (optional)' }), {
      target: { value: 'Dr Carter does not see new patients' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Appointment declined')).toBeInTheDocument();
    const [sent] = server.puts('Appointment/a1');
    expect(sent.body.status).toBe('cancelled');
    expect(sent.body.cancelationReason?.text).toBe('Declined by the clinic: Dr Carter does not see new patients');
    expect(sent.body.cancelationReason?.coding?.[0].code).toBe('prov');
    expect(sent.body.participant.map((participant) => participant.status)).toEqual(['declined', 'declined']);
    // Terminal now: the chip, the reason, no buttons.
    await waitFor(() => expect(chip()).toHaveTextContent('Cancelled'));
    expect(await panel()).toHaveTextContent('Reason: Declined by the clinic: Dr Carter does not see new patients');
    expect(await actionNames()).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('a booked appointment ahead: Cancel asks for a reason, then cancels', async () => {
    const server = serverWith(appointment('booked', TOMORROW));
    renderAppointment(server);
    expect(await actionNames()).toEqual(['Cancel appointment']);
    click('Cancel appointment');
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    const submit = within(dialog).getByRole('button', { name: 'Cancel appointment' });
    expect(submit).toBeDisabled();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Reason/ }), {
      target: { value: 'Patient is travelling' },
    });
    fireEvent.click(submit);
    expect(await screen.findByText('Appointment cancelled')).toBeInTheDocument();
    const [sent] = server.puts('Appointment/a1');
    expect(sent.body).toMatchObject({ status: 'cancelled', cancelationReason: { text: 'Patient is travelling' } });
    expect(sent.body.participant).toEqual(appointment('booked').participant);
  });

  it('on its day a booked appointment offers Check in', async () => {
    const server = serverWith(appointment('booked', LATER_TODAY));
    renderAppointment(server);
    expect(await actionNames()).toEqual(['Check in', 'Cancel appointment']);
    click('Check in');
    expect(await screen.findByText('Checked in')).toBeInTheDocument();
    expect(server.puts('Appointment/a1')[0].body.status).toBe('arrived');
    await waitFor(() => expect(chip()).toHaveTextContent('Arrived'));
  });

  it('a past booked visit is closed with Mark fulfilled or No-show', async () => {
    const server = serverWith(appointment('booked', LAST_WEEK));
    renderAppointment(server);
    expect(await actionNames()).toEqual(['Mark fulfilled', 'No-show']);
    click('No-show');
    expect(await screen.findByText('Marked no-show')).toBeInTheDocument();
    expect(server.puts('Appointment/a1')[0].body.status).toBe('noshow');
    await waitFor(() => expect(chip()).toHaveTextContent('No-show'));
    expect(await actionNames()).toEqual([]);
  });

  it('an arrived patient whose start has passed: Mark fulfilled', async () => {
    const server = serverWith(appointment('arrived', LAST_WEEK));
    renderAppointment(server);
    expect(await actionNames()).toEqual(['Mark fulfilled', 'No-show']);
    click('Mark fulfilled');
    expect(await screen.findByText('Marked fulfilled')).toBeInTheDocument();
    expect(server.puts('Appointment/a1')[0].body.status).toBe('fulfilled');
  });

  it('terminal states: the chip (and a cancellation reason), no buttons', async () => {
    const server = serverWith(
      appointment('cancelled', TOMORROW, {
        cancelationReason: { coding: [{ code: 'pat', display: 'Patient' }], text: 'Patient moved away' },
      }),
    );
    renderAppointment(server);
    const region = await panel();
    expect(chip()).toHaveTextContent('Cancelled');
    expect(region).toHaveTextContent('Reason: Patient moved away');
    expect(await actionNames()).toEqual([]);
  });

  it('someone changed it meanwhile (412): says so, reloads it, keeps the typed reason for the retry', async () => {
    const server = serverWith(appointment('booked', TOMORROW));
    renderAppointment(server);
    await panel();
    server.changeBehindTheClient('Appointment/a1', { comment: 'Bring the blood pressure diary' });
    const readsBefore = server.reads('Appointment/a1');
    click('Cancel appointment');
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    const reason = within(dialog).getByRole('textbox', { name: /^Reason/ });
    fireEvent.change(reason, { target: { value: 'Clinic closed for training' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    expect(await screen.findByText('Another user modified the appointment.')).toBeInTheDocument();
    expect(server.puts('Appointment/a1')[0].ifMatch).toBe('W/"1"');
    await waitFor(() => expect(server.reads('Appointment/a1')).toBeGreaterThan(readsBefore));
    // The dialog and what was typed are still there; a retry writes on the version read again.
    expect(reason).toHaveValue('Clinic closed for training');
    await waitFor(() => expect(screen.getByText('Bring the blood pressure diary')).toBeInTheDocument());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel appointment' }));
    expect(await screen.findByText('Appointment cancelled')).toBeInTheDocument();
    const retry = server.puts('Appointment/a1')[1];
    expect(retry.ifMatch).toBe('W/"2"');
    // The other user's change is kept.
    expect(retry.body).toMatchObject({ status: 'cancelled', comment: 'Bring the blood pressure diary' });
  });

  it('a member whose policy does not allow updating Appointments sees the status but no buttons', async () => {
    const readOnly: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Appointment', readonly: true }, { resourceType: 'Patient' }],
    };
    const server = serverWith(appointment('proposed', TOMORROW), readOnly);
    renderAppointment(server);
    const region = await panel();
    expect(chip()).toHaveTextContent('Requested');
    expect(within(region).queryAllByRole('button')).toEqual([]);
  });

  it('a past version of the appointment shows no actions', async () => {
    const server = serverWith(appointment('proposed', TOMORROW));
    renderAppointment(server, '/Appointment/a1/_history/1');
    expect(await screen.findByRole('heading', { name: /Appointment\/a1 version 1/ })).toBeInTheDocument();
    await screen.findByRole('region', { name: 'JSON of version 1' });
    // Give the lazy panel its chance to appear; it must not.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region', { name: 'Appointment' })).not.toBeInTheDocument();
  });
});
