import { render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Resource, Task } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { RequiredActions } from './RequiredActions';

beforeEach(() => vi.useFakeTimers({ now: new Date(2026, 10, 27, 12), toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

const task = (id: string, text: string, due?: string): Task => ({
  resourceType: 'Task',
  id,
  status: 'ready',
  intent: 'order',
  code: { text },
  ...(due ? { restriction: { period: { end: due } } } : {}),
});

const searchset = (resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  entry: resources.map((resource) => ({ resource, search: { mode: 'match' as const } })),
});

/**
 * Inside the chart, as on the Encounter tab: the chart header's searches (its open tasks, with and
 * without a form, among them) answered from `chartTasks`; every other search finds nothing.
 */
function inChart(ui: ReactNode, chartTasks: Task[] = []) {
  const fake = new FakeFetch();
  const answer = (url: string) => searchset(/^Task\?/.test(url) ? chartTasks : []);
  fake.on('GET', /\/fhir\/R4\/[A-Za-z]+\?/, (call) => jsonResponse(answer(call.url.split('/fhir/R4/')[1] ?? '')));
  fake.on('POST', /\/fhir\/R4\/?$/, (call) =>
    jsonResponse({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: ((JSON.parse(call.body as string) as Bundle).entry ?? []).map((entry) => ({
        resource: answer(entry.request?.url ?? ''),
        response: { status: '200 OK' },
      })),
    }),
  );
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (node: ReactNode) => (
    <QueryClientProvider client={queryClient}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>{node}</MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>
  );
  const view = render(tree(ui));
  return { ...view, fake, rerender: (node: ReactNode) => view.rerender(tree(node)) };
}

describe('RequiredActions', { timeout: 30_000 }, () => {
  it('shows each open task with its status and how urgent its due date is, linking to its page', () => {
    inChart(
      <RequiredActions
        patientId="p1"
        tasks={[task('t1', 'Call back', '2026-11-25'), task('t2', 'Review labs', '2026-12-20'), task('t3', 'File')]}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Required actions (3)' })).toBeInTheDocument();
    const items = within(screen.getByRole('list', { name: 'Required actions' })).getAllByRole('link');
    expect(items[0]).toHaveAttribute('href', '/Patient/p1/task/t1/details');
    const chip = (item: HTMLElement) => item.querySelector('[data-due]');
    expect(chip(items[0])).toHaveAttribute('data-due', 'overdue');
    expect(chip(items[0])).toHaveTextContent(/^Overdue · .*2026$/);
    expect(chip(items[1])).toHaveAttribute('data-due', 'later');
    expect(chip(items[1])).toHaveTextContent(/^Due /);
    expect(chip(items[2])).toBeNull();
    expect(within(items[2]).getByText('ready')).toBeInTheDocument();
  });

  it('says what each task is about when its description adds to its title', () => {
    inChart(
      <RequiredActions
        patientId="p1"
        tasks={[
          { ...task('t1', 'Review lab results'), description: 'Review Lipid panel with direct LDL' },
          { ...task('t2', 'Call back'), description: 'call back' },
          { resourceType: 'Task', id: 't3', status: 'ready', intent: 'order', description: 'Fax the referral' },
        ]}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Required actions' })).getAllByRole('link');
    expect(items[0]).toHaveTextContent('Review lab results');
    expect(items[0]).toHaveTextContent('Review Lipid panel with direct LDL');
    // A description that only repeats the title is not said twice; one without a code is the title.
    expect(within(items[1]).getAllByText(/call back/i)).toHaveLength(1);
    expect(within(items[2]).getAllByText('Fax the referral')).toHaveLength(1);
  });

  it('says when the patient has no open task, and shows a failed load', () => {
    const { rerender } = inChart(<RequiredActions patientId="p1" tasks={[]} />);
    expect(screen.getByText('No open tasks for this patient.')).toBeInTheDocument();
    rerender(<RequiredActions patientId="p1" tasks={undefined} error={new Error('Forbidden')} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Forbidden');
    expect(screen.getByRole('heading', { name: 'Required actions (…)' })).toBeInTheDocument();
  });

  // Wendy's, as the QA walk found them: the summary says 4 open tasks, Required actions lists 3.
  const withForm = (id: string, focus: string): Task => ({ ...task(id, `Review ${id}`), focus: { reference: focus } });
  const wendysTasks: Task[] = [
    withForm('t1', 'QuestionnaireResponse/qr1'),
    withForm('t2', 'DiagnosticReport/dr1'),
    withForm('t3', 'CarePlan/cp1'),
    task('t4', 'Call patient about results'),
    { ...withForm('t5', 'QuestionnaireResponse/qr0'), status: 'completed' },
  ];

  it('says under its list, as the chart does, the open task without a form it leaves out, linking to the Tasks tab', async () => {
    inChart(<RequiredActions patientId="p1" tasks={wendysTasks.slice(0, 3)} />, wendysTasks);
    expect(screen.getByRole('heading', { name: 'Required actions (3)' })).toBeInTheDocument();
    const line = await screen.findByRole('status');
    expect(line).toHaveTextContent('1 more open task has no form — see the Tasks tab');
    expect(within(line).getByRole('link', { name: 'see the Tasks tab' })).toHaveAttribute('href', '/Patient/p1/Task');
    // Under the list, inside the section it explains.
    const section = screen.getByRole('region', { name: 'Required actions (3)' });
    expect(section).toContainElement(line);
    expect(screen.getByRole('list', { name: 'Required actions' }).compareDocumentPosition(line)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('says no task has a form, rather than that none is open, when the open ones all lack one', async () => {
    inChart(<RequiredActions patientId="p1" tasks={[]} />, [task('t4', 'Call patient about results')]);
    expect(await screen.findByRole('status')).toHaveTextContent('1 open task has no form — see the Tasks tab');
    expect(screen.getByText('No open task has a form to act on.')).toBeInTheDocument();
    expect(screen.queryByText('No open tasks for this patient.')).not.toBeInTheDocument();
  });

  it('adds nothing when every open task has a form (the counts agree)', async () => {
    const { fake } = inChart(<RequiredActions patientId="p1" tasks={wendysTasks.slice(0, 3)} />, [
      ...wendysTasks.slice(0, 3),
      wendysTasks[4]!,
    ]);
    await waitFor(() => expect(fake.calls.some((call) => call.url.includes('Task'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByText(/has no form/)).not.toBeInTheDocument();
  });
});
