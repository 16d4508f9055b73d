import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Appointment, Patient, Task } from '@medplum/fhirtypes';
import { resourceQueryKey } from '../../../src/resources/useResource';
import { localDay } from '../summary/summaryQueries';
import { chartServer, renderChart, type ChartServer } from './deceasedChartTestSupport';

const DAY = 86_400_000;
const daysFromNow = (days: number, hour = 10) => {
  const date = new Date(Date.now() + days * DAY);
  date.setHours(hour, 0, 0, 0);
  return date.toISOString();
};
const diedOn = localDay(new Date(Date.now() - 10 * DAY));

const living: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  name: [{ given: ['Maria'], family: 'Lopez' }],
  gender: 'female',
  birthDate: '1942-03-12',
};
const deceased: Patient = { ...living, deceasedDateTime: diedOn };

const appointment = (id: string, status: Appointment['status'], start: string, description: string): Appointment => ({
  resourceType: 'Appointment',
  id,
  status,
  description,
  start,
  end: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
  comment: `Notes of ${id}`,
  participant: [
    { actor: { reference: 'Patient/p1' }, status: 'accepted' },
    { actor: { reference: 'Practitioner/alice', display: 'Alice Smith' }, status: 'accepted' },
  ],
});
const task = (id: string, status: Task['status'], due?: string): Task => ({
  resourceType: 'Task',
  id,
  status,
  intent: 'order',
  code: { text: `Task ${id}` },
  for: { reference: 'Patient/p1' },
  restriction: due ? { period: { end: due } } : undefined,
});

/** Two appointments left open after the death, and three that are not; three open tasks (one overdue), one done. */
function seed(server: ChartServer, patient: Patient) {
  server.put(
    patient,
    appointment('follow-up', 'booked', daysFromNow(5, 14), 'Follow-up visit'),
    appointment('wellness', 'proposed', daysFromNow(30), 'Annual wellness visit'),
    appointment('bp-check', 'fulfilled', daysFromNow(-20), 'Blood pressure check'),
    appointment('before-death', 'booked', daysFromNow(-15), 'Flu shot'),
    appointment('already-cancelled', 'cancelled', daysFromNow(8), 'Physiotherapy'),
    task('t1', 'ready', localDay(new Date(Date.now() - 2 * DAY))),
    task('t2', 'in-progress'),
    task('t3', 'requested'),
    task('t4', 'completed'),
  );
}

const findNotice = async () => {
  await screen.findByText(/^Died /);
  return screen.getByText(/^Died /).closest('[data-deceased-notice]') as HTMLElement;
};

describe('A deceased patient’s chart', { timeout: 30_000 }, () => {
  it('says when the patient died and what is still open, linking to the Appointments and Tasks tabs', async () => {
    const server = chartServer();
    seed(server, deceased);
    renderChart(server, deceased);
    const box = await findNotice();
    const [year, month, day] = diedOn.split('-');
    const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    expect(within(box).getByText(`Died ${Number(day)} ${months[Number(month) - 1]} ${year}`)).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveTextContent('2 appointments and 3 tasks are still open.'));
    expect(box).toHaveAttribute('role', 'status');
    expect(box.className).toMatch(/Warning/);
    expect(within(box).getByRole('button', { name: 'Cancel 2 appointments…' })).toBeInTheDocument();

    await userEvent.click(within(box).getByRole('link', { name: '3 tasks' }));
    expect(await screen.findByRole('table', { name: 'Tasks' })).toBeInTheDocument();
    await userEvent.click(within(box).getByRole('link', { name: '2 appointments' }));
    expect(await screen.findByRole('table', { name: 'Appointments' })).toBeInTheDocument();

    // The header keeps the overdue count in words, but not in the error colour of a patient waiting.
    const header = await screen.findByRole('link', { name: '3 open tasks · 1 overdue' });
    expect(getComputedStyle(within(header).getByText(/1 overdue/)).color).toBe(getComputedStyle(header).color);
  });

  it('shows no notice for a living patient, and shows it once the open chart’s patient is recorded dead', async () => {
    const server = chartServer();
    seed(server, living);
    const { queryClient } = renderChart(server, living);
    const header = await screen.findByRole('link', { name: '3 open tasks · 1 overdue' });
    // A living patient's overdue work is still an alarm.
    expect(getComputedStyle(within(header).getByText(/1 overdue/)).color).not.toBe(getComputedStyle(header).color);
    expect(screen.queryByText(/^Died /)).toBeNull();
    expect(document.querySelector('[data-deceased-notice]')).toBeNull();
    expect(server.searches().filter((search) => search.includes('waitlist'))).toEqual([]);

    // Saved in the Edit tab: the editor hands the chart the saved patient.
    server.put(deceased);
    act(() => queryClient.setQueryData(resourceQueryKey('Patient', 'p1'), server.get<Patient>('Patient/p1')));
    const box = await findNotice();
    await waitFor(() => expect(box).toHaveTextContent('2 appointments and 3 tasks are still open.'));
  });

  it('says only when the patient died when nothing is left open', async () => {
    const server = chartServer();
    server.put(deceased, appointment('bp-check', 'fulfilled', daysFromNow(-20), 'Blood pressure check'));
    renderChart(server, deceased);
    const box = await findNotice();
    await screen.findByRole('link', { name: 'No open tasks' });
    await waitFor(() => expect(server.searches().some((search) => search.includes('waitlist'))).toBe(true));
    await waitFor(() => expect(box.className).toMatch(/Info/));
    expect(box).not.toHaveTextContent(/still open/);
    expect(within(box).queryByRole('button')).toBeNull();
  });

  it('cancels exactly the appointments left open, with the reason pat-dec and the version read, and recounts', async () => {
    const server = chartServer();
    seed(server, deceased);
    const listed = new Map(
      ['follow-up', 'wellness'].map((id) => [id, server.get<Appointment>(`Appointment/${id}`)] as const),
    );
    renderChart(server, deceased, '/Patient/p1/Appointment');
    const box = await findNotice();
    await userEvent.click(await within(box).findByRole('button', { name: 'Cancel 2 appointments…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 2 appointments?' });
    const rows = within(within(dialog).getByRole('list', { name: 'Appointments to cancel' })).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Follow-up visit'),
      expect.stringContaining('Annual wellness visit'),
    ]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 2 appointments' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('2 appointments cancelled')).toBeInTheDocument();
    const puts = server.puts();
    expect(puts.map((p) => p.body.id).sort()).toEqual(['follow-up', 'wellness']);
    for (const sent of puts) {
      expect(sent.ifMatch).toBe('W/"1"');
      // Everything else as read: participants, times, comment, the version it was read at.
      expect(sent.body).toEqual({
        ...listed.get(sent.body.id ?? ''),
        status: 'cancelled',
        cancelationReason: {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason',
              code: 'pat-dec',
              display: 'Patient: Deceased',
            },
          ],
          text: 'Patient: Deceased',
        },
      });
    }
    expect(server.get<Appointment>('Appointment/bp-check').status).toBe('fulfilled');
    expect(server.get<Appointment>('Appointment/before-death').status).toBe('booked');

    // The notice, the header and the open Appointments tab count again without a reload.
    await waitFor(() => expect(box).toHaveTextContent('3 tasks are still open.'));
    expect(within(box).queryByRole('button', { name: /Cancel/ })).toBeNull();
    expect(await screen.findByRole('link', { name: '0 upcoming appointments' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Appointments' });
    await waitFor(() => {
      const followUp = within(table).getByText('Follow-up visit').closest('tr') as HTMLElement;
      expect(within(followUp).getByText('cancelled')).toBeInTheDocument();
    });
  });

  it('reports a cancel the server refused, keeps the others done, and tries only that one again', async () => {
    const server = chartServer();
    seed(server, deceased);
    renderChart(server, deceased);
    const box = await findNotice();
    await userEvent.click(await within(box).findByRole('button', { name: 'Cancel 2 appointments…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 2 appointments?' });
    // Someone else moves the follow-up after the list was read: the cancel must not overwrite that.
    server.changeBehindTheClient('Appointment/follow-up', {
      comment: 'Moved to the afternoon',
    } as Partial<Appointment>);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 2 appointments' }));

    expect(await within(dialog).findByText('1 of 2 appointments could not be cancelled. The other one is cancelled.'));
    const rows = within(dialog).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/Not cancelled: Changed by someone else since this list was loaded/);
    expect(rows[0]).toHaveTextContent(/Version mismatch: If-Match W\/"1" but the current version is 2/);
    expect(rows[1]).toHaveTextContent('Cancelled');
    expect(server.get<Appointment>('Appointment/follow-up')).toMatchObject({
      status: 'booked',
      comment: 'Moved to the afternoon',
    });
    expect(server.get<Appointment>('Appointment/wellness').status).toBe('cancelled');

    // The second click: only the failed one, read again, cancelled as it is now (its new comment kept).
    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again (1)' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('2 appointments cancelled')).toBeInTheDocument();
    expect(server.puts('Appointment/wellness')).toHaveLength(1);
    expect(server.puts('Appointment/follow-up').map((p) => p.ifMatch)).toEqual(['W/"1"', 'W/"2"']);
    expect(server.get<Appointment>('Appointment/follow-up')).toMatchObject({
      status: 'cancelled',
      comment: 'Moved to the afternoon',
    });
  });

  it('leaves alone on the retry an appointment someone else closed meanwhile', async () => {
    const server = chartServer();
    seed(server, deceased);
    renderChart(server, deceased);
    const box = await findNotice();
    await userEvent.click(await within(box).findByRole('button', { name: 'Cancel 2 appointments…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 2 appointments?' });
    server.changeBehindTheClient('Appointment/wellness', { status: 'fulfilled' } as Partial<Appointment>);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 2 appointments' }));
    await within(dialog).findByText(/1 of 2 appointments could not be cancelled/);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Try again (1)' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('1 appointment cancelled; 1 left as changed by someone else')).toBeInTheDocument();
    // Read again, not written again: it stays as the other person left it.
    expect(server.puts('Appointment/wellness')).toHaveLength(1);
    expect(server.get<Appointment>('Appointment/wellness').status).toBe('fulfilled');
  });

  it('shows the server’s reason for a refused cancel, and closing keeps what was done', async () => {
    const server = chartServer();
    seed(server, deceased);
    renderChart(server, deceased);
    const box = await findNotice();
    await userEvent.click(await within(box).findByRole('button', { name: 'Cancel 2 appointments…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel 2 appointments?' });
    server.refuseNextWrite('Appointment/wellness', 'Appointment.participant: a practitioner is required');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 2 appointments' }));
    const rows = within(dialog).getAllByRole('listitem');
    await waitFor(() =>
      expect(rows[1]).toHaveTextContent('Not cancelled: Appointment.participant: a practitioner is required'),
    );
    expect(rows[0]).toHaveTextContent('Cancelled');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // What was done stays done: the notice now offers the one left.
    expect(await within(box).findByRole('button', { name: 'Cancel 1 appointment…' })).toBeInTheDocument();
  });

  it('counts but offers no cancel to a caller who may only read appointments', async () => {
    const server = chartServer();
    seed(server, deceased);
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: ['Patient', 'Task', 'Encounter', 'AllergyIntolerance', 'Condition', 'MedicationRequest', 'Observation']
        .map((resourceType) => ({ resourceType }))
        .concat([{ resourceType: 'Appointment', readonly: true } as { resourceType: string }]),
    };
    vi.spyOn(server.client, 'getAccessPolicy').mockReturnValue(policy);
    renderChart(server, deceased);
    const box = await findNotice();
    await waitFor(() => expect(box).toHaveTextContent('2 appointments and 3 tasks are still open.'));
    expect(within(box).queryByRole('button')).toBeNull();
  });

  it('shows nothing of it in a patient’s own view, and does not search their open appointments', async () => {
    const server = chartServer();
    seed(server, deceased);
    const staff = renderChart(server, deceased);
    await findNotice();
    staff.unmount();
    const searchesBefore = server.searches().length;

    vi.spyOn(server.client, 'getProfile').mockReturnValue({ resourceType: 'Patient', id: 'p1' });
    renderChart(server, deceased);
    await screen.findByRole('heading', { name: 'Maria Lopez' });
    await screen.findByTestId('timeline');
    expect(document.querySelector('[data-deceased-notice]')).toBeNull();
    expect(screen.queryByText(/^Died /)).toBeNull();
    expect(screen.queryByText(/still open/)).toBeNull();
    expect(
      server
        .searches()
        .slice(searchesBefore)
        .filter((search) => search.includes('waitlist')),
    ).toEqual([]);
  });
});
