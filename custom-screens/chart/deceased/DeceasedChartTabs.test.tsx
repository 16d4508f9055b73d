import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Patient, Practitioner, Task } from '@medplum/fhirtypes';
import { chartServer, renderChart, type ChartServer } from './deceasedChartTestSupport';

const living: Patient = {
  resourceType: 'Patient',
  id: 'p1',
  name: [{ given: ['Anne'], family: 'Smith' }],
  gender: 'female',
  birthDate: '1940-01-20',
};
const deceased: Patient = { ...living, deceasedDateTime: '2026-11-18' };
const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: 'alice',
  name: [{ given: ['Alice'], family: 'Carter' }],
};

const task = (id: string, status: Task['status']): Task => ({
  resourceType: 'Task',
  id,
  status,
  intent: 'order',
  code: { text: `Task ${id}` },
  for: { reference: 'Patient/p1' },
});

function seedTasks(server: ChartServer, patient: Patient, statuses: Task['status'][]) {
  server.put(patient, ...statuses.map((status, index) => task(`t${index + 1}`, status)));
}

const tasksLine = () => document.querySelector('[data-deceased-tasks-line]') as HTMLElement | null;

beforeEach(() => {
  // The chat's live socket is refused by the small server; it is not what these test.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('The Tasks tab of a deceased patient’s chart', { timeout: 30_000 }, () => {
  it('says above the list how many tasks are still open, in the notice’s amber', async () => {
    const server = chartServer();
    seedTasks(server, deceased, ['ready', 'in-progress', 'requested', 'completed']);
    renderChart(server, deceased, '/Patient/p1/Task');
    const table = await screen.findByRole('table', { name: 'Tasks' });
    await waitFor(() =>
      expect(tasksLine()).toHaveTextContent(
        'The patient has died and 3 tasks are still open: close the ones no longer needed.',
      ),
    );
    const line = tasksLine() as HTMLElement;
    expect(line).toHaveAttribute('role', 'status');
    expect(line.className).toMatch(/Warning/);
    // Above the list, and it closes nothing.
    expect(line.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(line).queryByRole('button')).toBeNull();
    expect(server.puts()).toEqual([]);
  });

  it('counts again when a task is closed through the client', async () => {
    const server = chartServer();
    seedTasks(server, deceased, ['ready', 'in-progress', 'requested']);
    renderChart(server, deceased, '/Patient/p1/Task');
    await waitFor(() => expect(tasksLine()).toHaveTextContent('3 tasks are still open'));
    await server.client.updateResource({ ...server.get<Task>('Task/t1'), status: 'completed' });
    await server.client.updateResource({ ...server.get<Task>('Task/t2'), status: 'cancelled' });
    await waitFor(() =>
      expect(tasksLine()).toHaveTextContent(
        'The patient has died and 1 task is still open: close it if it is no longer needed.',
      ),
    );
  });

  it('leaves it to the notice when no task is open', async () => {
    const server = chartServer();
    seedTasks(server, deceased, ['completed']);
    renderChart(server, deceased, '/Patient/p1/Task');
    await screen.findByRole('table', { name: 'Tasks' });
    // The count is known once the header says it: the line would be there by then.
    await screen.findByRole('link', { name: 'No open tasks' });
    expect(screen.getByText(/^Died 18 Nov 2026/)).toBeInTheDocument();
    expect(tasksLine()).toBeNull();
  });

  it('shows no line for a living patient, nor on another tab', async () => {
    const server = chartServer();
    seedTasks(server, living, ['ready']);
    renderChart(server, living, '/Patient/p1/Task');
    await screen.findByRole('table', { name: 'Tasks' });
    await screen.findByRole('link', { name: '1 open task' });
    expect(tasksLine()).toBeNull();

    const other = chartServer();
    seedTasks(other, deceased, ['ready']);
    renderChart(other, deceased, '/Patient/p1/Appointment');
    await screen.findByText(/^Died /);
    await screen.findByText('No appointments for this patient yet.');
    expect(tasksLine()).toBeNull();
  });
});

describe('The Communications tab of a deceased patient’s chart', { timeout: 30_000 }, () => {
  it('says the death once: the chart’s notice above, and only why the box is closed in the chat', async () => {
    const server = chartServer();
    server.put(deceased);
    vi.spyOn(server.client, 'getProfile').mockReturnValue(alice);
    renderChart(server, deceased, '/Patient/p1/communication');
    await screen.findByText(/^Died /);
    const box = await screen.findByRole('textbox', { name: 'Replies are disabled' });
    expect(box).toBeDisabled();
    await waitFor(() => expect(box).toHaveAccessibleDescription('Messaging is closed: the patient has died.'));
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    const notices = document.querySelectorAll('[data-deceased-notice]');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toHaveTextContent('Died 18 Nov 2026');
    // In the tab itself, no second banner: the death is said only as the reason the box is closed.
    const tab = screen.getByRole('region', { name: 'Chart' });
    expect(within(tab).queryByTestId('chat-closed-notice')).toBeNull();
    expect(within(tab).queryByRole('alert')).toBeNull();
    expect(
      within(tab)
        .getAllByText(/died|deceased/i)
        .map((element) => element.textContent),
    ).toEqual(['Messaging is closed: the patient has died.']);
  });
});
