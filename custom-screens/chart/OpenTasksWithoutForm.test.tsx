import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Resource, Task } from '@medplum/fhirtypes';
import { clinicianPolicy, frontDeskPolicy, renderChartAs } from './chartAccessTestSupport';
import { defaultRecords, renderChart } from './chartPageTestSupport';
import { renderSummary, summaryServer } from './summary/summaryTestSupport';

/**
 * "4 open tasks" in the summary, "Required actions (3)" on the Encounter tab: the visit note lists
 * only tasks with a focus (app-spec §4), and the chart says so in words where the counts are read.
 */

const task = (id: string, status: Task['status'], focus?: string): Task => ({
  resourceType: 'Task',
  id,
  status,
  intent: 'order',
  for: { reference: 'Patient/p1' },
  code: { text: focus ? `Review ${id}` : 'Call patient about results' },
  ...(focus ? { focus: { reference: focus } } : {}),
});

// As the QA walk found Wendy's: three with a form, "Call patient…" without one, one completed.
const wendysTasks: Task[] = [
  task('t1', 'ready', 'QuestionnaireResponse/qr1'),
  task('t2', 'in-progress', 'DiagnosticReport/dr1'),
  task('t3', 'ready', 'CarePlan/cp1'),
  task('t4', 'ready'),
  task('t5', 'completed', 'QuestionnaireResponse/qr0'),
];

describe('Open tasks without a form', { timeout: 30_000 }, () => {
  it('the summary says under its count that Required actions shows only the 3 with a form', async () => {
    const server = summaryServer();
    server.store.set('Task', wendysTasks);
    renderSummary(server, { tasksHref: '/Patient/p1/Task' });
    const link = await screen.findByRole('link', { name: '4 open tasks' });
    expect(link).toBeInTheDocument();
    expect(screen.getByText('Required actions (Encounter) shows the 3 with a form; 1 more has no form')).toBeVisible();
    // The header asks for the focus, to tell them apart.
    expect(
      server.fake.calls.some((call) => decodeURIComponent(call.url).includes('_elements=status,restriction,focus')),
    ).toBe(true);
  });

  it('says nothing more when every open task has a form (the counts agree)', async () => {
    const server = summaryServer();
    server.store.set(
      'Task',
      wendysTasks.filter((t) => t.id !== 't4'),
    );
    renderSummary(server);
    await screen.findByRole('link', { name: '3 open tasks' });
    expect(screen.queryByText(/Required actions/)).not.toBeInTheDocument();
  });

  it('the Tasks tab says above its list which open tasks Required actions leaves out', async () => {
    renderChart('/Patient/p1/Task', { ...defaultRecords, Task: wendysTasks as Resource[] });
    const text =
      "The Encounter tab's Required actions lists only open tasks with a form to act on (3 of 4): " +
      '1 open task without a form is listed here only.';
    const line = await screen.findByText(text);
    expect(line.closest('[role="status"]')).toBeInTheDocument();
    const chart = screen.getByRole('region', { name: 'Chart' });
    expect(within(chart).getByText(text)).toBeVisible();
  });

  it('the visit note says under Required actions (3) that 1 more has no form, linking to the Tasks tab', async () => {
    renderChart('/Patient/p1/encounter', { ...defaultRecords, Task: wendysTasks as Resource[] });
    const chart = screen.getByRole('region', { name: 'Chart' });
    const section = await within(chart).findByRole(
      'region',
      { name: 'Required actions (3)' },
      // The visit note is its own chunk, loaded when the tab opens.
      { timeout: 10_000 },
    );
    const line = await within(section).findByText(/1 more open task has no form/);
    expect(line.closest('[role="status"]')).toHaveTextContent('1 more open task has no form — see the Tasks tab');
    expect(within(section).getByRole('link', { name: 'see the Tasks tab' })).toHaveAttribute(
      'href',
      '/Patient/p1/Task',
    );
    // The header beside it counts all four, and says the same in its words.
    expect(await screen.findByRole('link', { name: '4 open tasks' })).toBeInTheDocument();
  });
});

describe('Open tasks without a form, for a viewer without the Encounter tab', { timeout: 30_000 }, () => {
  // The demo records' two open tasks have no form: for a clinician, Required actions lists none of them.
  const tasksTabLine = /The Encounter tab's Required actions lists only open tasks with a form/;

  it('the front desk’s Tasks tab lists the tasks without pointing at Required actions, which it cannot open', async () => {
    renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1/Task');
    const chart = screen.getByRole('region', { name: 'Chart' });
    expect(within(chart).queryByRole('tab', { name: 'Encounter' })).not.toBeInTheDocument();
    expect(await within(chart).findByText('Review lab order')).toBeInTheDocument();
    expect(screen.queryByText(tasksTabLine)).not.toBeInTheDocument();
    expect(document.querySelector('[data-formless-tasks-line]')).toBeNull();
    // Nor does the summary's header under its count (it named a tab he does not have).
    expect(await screen.findByRole('link', { name: /^\d+ open tasks?/ })).toBeInTheDocument();
    expect(screen.queryByText(/Required actions/)).not.toBeInTheDocument();
  });

  it('the clinician’s Tasks tab and summary header still say it', async () => {
    renderChartAs({ policy: clinicianPolicy }, '/Patient/p1/Task');
    expect(await screen.findByText(tasksTabLine)).toBeInTheDocument();
    expect(await screen.findByText(/Required actions \(Encounter\) is empty/)).toBeInTheDocument();
  });
});
