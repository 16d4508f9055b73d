import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  Bundle,
  Patient,
  Practitioner,
  QuestionnaireResponse,
  Reference,
  ResourceType,
  Task,
} from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { phq9 } from '../../config/questionnaires/phq9';
import { TaskPage } from './TaskPage';

afterEach(() => window.sessionStorage.clear());

const questionnaire = { ...phq9, id: 'phq9' };
const patient: Patient = { resourceType: 'Patient', id: 'p1', name: [{ given: ['Geoffrey'], family: 'Abbott' }] };
const alice: Practitioner = { resourceType: 'Practitioner', id: 'a', name: [{ given: ['Alice'], family: 'Carter' }] };
const task: Task = {
  resourceType: 'Task',
  id: 't1',
  meta: { versionId: '1' },
  status: 'ready',
  intent: 'order',
  code: { text: 'Fill in the PHQ-9 depression screening' },
  for: { reference: 'Patient/p1' },
  focus: { reference: 'Questionnaire/phq9' },
};
const QUESTIONS = 9;

/**
 * A PHQ-9 response as the server stores it: two questions "Several days", the rest "Not at all",
 * total 2 — or item 9 answered with the option at `item9` (2: "More than half the days").
 */
function storedResponse(item9 = 0): QuestionnaireResponse {
  const answer = (index: number) =>
    phq9.item?.[0].item?.[index].answerOption?.[index === 8 ? item9 : index < 2 ? 1 : 0].valueCoding as NonNullable<
      QuestionnaireResponse['item']
    >[number]['answer'];
  return {
    resourceType: 'QuestionnaireResponse',
    id: 'r1',
    questionnaire: phq9.url,
    status: 'completed',
    authored: '2026-03-02T10:15:00Z',
    author: { reference: 'Practitioner/a' },
    basedOn: [{ reference: 'Task/t1' }],
    item: [
      {
        linkId: 'phq9-items',
        item: phq9.item?.[0].item?.map((item, index) => ({
          linkId: item.linkId,
          text: item.text,
          answer: [{ valueCoding: answer(index) as never }],
        })),
      },
      { linkId: '44261-6', text: phq9.item?.[1].text, answer: [{ valueInteger: 2 + item9 }] },
      { linkId: 'severity', text: 'Depression severity', answer: [{ valueString: item9 ? 'Mild' : 'Minimal' }] },
    ],
  };
}

/** The calls the task page makes: the task, its questionnaire, patient and response, who is signed in, the submit. */
function fakeClient(current: Task, more: Record<string, unknown> = {}) {
  const resources: Record<string, unknown> = {
    ...more,
    'Task/t1': current,
    'Questionnaire/phq9': questionnaire,
    'Patient/p1': patient,
    'Practitioner/a': alice,
  };
  return {
    readResource: vi.fn(async (type: ResourceType, id: string) => resources[`${type}/${id}`]),
    readReference: vi.fn(async (reference: Reference) => resources[reference.reference as string]),
    // Only the search for the task's response: the one stored by the submit, if any.
    searchOne: vi.fn(async (type: ResourceType, query: Record<string, string>) =>
      type === 'QuestionnaireResponse' && query['based-on'] === 'Task/t1'
        ? resources['QuestionnaireResponse/r1']
        : undefined,
    ),
    executeBatch: vi.fn(async (bundle: Bundle): Promise<Bundle> => {
      const response = { ...(bundle.entry?.[0].resource as QuestionnaireResponse), id: 'r1' };
      const completed: Task = { ...current, status: 'completed', meta: { versionId: '2' } };
      resources['QuestionnaireResponse/r1'] = response;
      resources['Task/t1'] = completed;
      return {
        resourceType: 'Bundle',
        type: 'transaction-response',
        entry: [{ resource: response }, { resource: completed }],
      };
    }),
    getActiveLogin: () => ({ accessToken: 't', profile: { reference: 'Practitioner/a' } }),
    getProfile: () => alice,
    getProject: () => undefined,
    getProjectMembership: () => undefined,
    getUserConfiguration: () => undefined,
    getLogins: () => [],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}

/** The task page inside a scrolling container, as the shell's `main` is. */
function renderTaskPage(client: ReturnType<typeof fakeClient>, path: string) {
  const fhir = client as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={fhir}>
        <ShellClientContext.Provider value={fhir}>
          <ToastProvider>
            <MemoryRouter initialEntries={[path]}>
              <main data-testid="scroller" style={{ overflow: 'auto', height: 400 }}>
                <Routes>
                  <Route path="/Patient/:patientId/task/:taskId/*" element={<TaskPage />} />
                </Routes>
              </main>
            </MemoryRouter>
          </ToastProvider>
        </ShellClientContext.Provider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return screen.getByTestId('scroller');
}

describe('TaskPage: after a questionnaire task is submitted', () => {
  it('goes back to the top of the page, focuses the task heading and shows the submitted response with its score', async () => {
    const user = userEvent.setup({ delay: null });
    const client = fakeClient(task);
    const scroller = renderTaskPage(client, '/Patient/p1/task/t1/fill');
    const form = await screen.findByRole('form');
    const groups = await within(form).findAllByRole('radiogroup');
    expect(groups).toHaveLength(QUESTIONS);
    for (const [index, group] of groups.entries()) {
      await user.click(within(group).getByRole('radio', { name: index < 2 ? 'Several days' : 'Not at all' }));
    }
    await waitFor(() =>
      expect(within(form).getByLabelText('Patient Health Questionnaire 9 item (PHQ-9) total score')).toHaveValue(2),
    );
    // Where the submit button was, at the foot of a long form.
    scroller.scrollTop = 1800;
    expect(scroller.scrollTop).toBe(1800);
    await user.click(within(form).getByRole('button', { name: 'Submit and complete task' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Fill in the PHQ-9 depression screening' });
    await waitFor(() => expect(scroller.scrollTop).toBe(0));
    expect(document.activeElement).toBe(heading);
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());

    const summary = await screen.findByRole('region', { name: 'Response' });
    await waitFor(() => expect(summary).toHaveTextContent(/^Response\s*Submitted .+ by Alice Carter/));
    expect(summary).toHaveTextContent('Patient Health Questionnaire 9 item (PHQ-9) total score: 2');
    expect(summary).toHaveTextContent('Depression severity: Minimal');
    expect(within(summary).getByRole('link', { name: 'Open response' })).toHaveAttribute(
      'href',
      '/Patient/p1/QuestionnaireResponse/r1',
    );
    // The first answers, the rest behind Show more (the Details' own list, not a second one).
    const answers = screen.getByRole('region', { name: 'Response answers' });
    expect(within(answers).getByText('Little interest or pleasure in doing things')).toBeInTheDocument();
    expect(within(answers).getByRole('button', { name: 'Show more' })).toBeInTheDocument();
    expect(within(summary).queryByRole('alert')).toBeNull();
  }, 30_000);

  it('flags a positive item 9 in the response shown right after the submit', async () => {
    const user = userEvent.setup({ delay: null });
    renderTaskPage(fakeClient(task), '/Patient/p1/task/t1/fill');
    const form = await screen.findByRole('form');
    const groups = await within(form).findAllByRole('radiogroup');
    for (const [index, group] of groups.entries()) {
      await user.click(
        within(group).getByRole('radio', { name: index === 8 ? 'More than half the days' : 'Not at all' }),
      );
    }
    await user.click(within(form).getByRole('button', { name: 'Submit and complete task' }));

    const summary = await screen.findByRole('region', { name: 'Response' });
    expect(within(summary).getByRole('alert')).toHaveTextContent(
      'Item 9 positive: thoughts of self-harm on more than half the days. Assess suicide risk today.',
    );
    await waitFor(() => expect(summary).toHaveTextContent('total score: 2'));
  }, 30_000);
});

describe('TaskDetails of a completed questionnaire task', () => {
  it('finds the response based on the task and shows when, by whom, its score and a link to it', async () => {
    const client = fakeClient(
      { ...task, status: 'completed', meta: { versionId: '2' } },
      { 'QuestionnaireResponse/r1': storedResponse() },
    );
    renderTaskPage(client, '/Patient/p1/task/t1/details');

    const summary = await screen.findByRole('region', { name: 'Response' });
    expect(client.searchOne).toHaveBeenCalledWith(
      'QuestionnaireResponse',
      expect.objectContaining({ 'based-on': 'Task/t1' }),
      expect.anything(),
    );
    await waitFor(() => expect(summary).toHaveTextContent('by Alice Carter'));
    expect(summary).toHaveTextContent('Submitted');
    expect(summary).toHaveTextContent('total score: 2');
    expect(summary).toHaveTextContent('Depression severity: Minimal');
    expect(within(summary).getByRole('link', { name: 'Open response' })).toHaveAttribute(
      'href',
      '/Patient/p1/QuestionnaireResponse/r1',
    );
    const answers = screen.getByRole('region', { name: 'Response answers' });
    expect(within(answers).getAllByText('Several days')).toHaveLength(2);
    expect(within(answers).getAllByRole('definition')).toHaveLength(3);
    expect(within(summary).queryByRole('alert')).toBeNull();
  });

  it('flags a positive item 9 (self-harm) above the score, however low the score is', async () => {
    const client = fakeClient(
      { ...task, status: 'completed', meta: { versionId: '2' } },
      { 'QuestionnaireResponse/r1': storedResponse(2) },
    );
    renderTaskPage(client, '/Patient/p1/task/t1/details');
    const summary = await screen.findByRole('region', { name: 'Response' });
    const alert = await within(summary).findByRole('alert');
    expect(alert).toHaveTextContent(
      'Item 9 positive: thoughts of self-harm on more than half the days. Assess suicide risk today.',
    );
    const score = within(summary).getByText(/total score/);
    expect(alert.compareDocumentPosition(score) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows the due date of a completed task plainly: a finished task is never overdue', async () => {
    const client = fakeClient({
      ...task,
      status: 'completed',
      restriction: { period: { end: '2020-01-01' } },
    });
    renderTaskPage(client, '/Patient/p1/task/t1/details');
    const due = (await screen.findByText('Due')).nextElementSibling as HTMLElement;
    expect(due).toHaveTextContent(/^1 Jan 2020$/);
    expect(due.textContent).not.toMatch(/overdue/i);
  });

  it('still marks an open task past its due date as overdue', async () => {
    renderTaskPage(
      fakeClient({ ...task, restriction: { period: { end: '2020-01-01' } } }),
      '/Patient/p1/task/t1/details',
    );
    const due = (await screen.findByText('Due')).nextElementSibling as HTMLElement;
    expect(due).toHaveTextContent(/^1 Jan 2020 \(overdue\)$/);
  });

  it('offers no Save for the due date the task already has (it wrote an empty version)', async () => {
    const user = userEvent.setup({ delay: null });
    renderTaskPage(
      fakeClient({ ...task, restriction: { period: { end: '2027-01-15' } } }),
      '/Patient/p1/task/t1/details',
    );
    await user.click(await screen.findByRole('button', { name: 'Change Due-Date' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change due date' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(within(dialog).getByLabelText(/Due date/)).toHaveValue('2027-01-15');
    expect(save).toBeDisabled();
    await user.clear(within(dialog).getByLabelText(/Due date/));
    await user.type(within(dialog).getByLabelText(/Due date/), '2027-01-20');
    expect(save).toBeEnabled();
  });

  it('a task whose output names the response reads that response', async () => {
    const client = fakeClient(
      {
        ...task,
        status: 'completed',
        output: [{ type: { text: 'Response' }, valueReference: { reference: 'QuestionnaireResponse/r1' } }],
      },
      { 'QuestionnaireResponse/r1': storedResponse() },
    );
    renderTaskPage(client, '/Patient/p1/task/t1/details');
    expect(await screen.findByRole('region', { name: 'Response' })).toHaveTextContent('total score: 2');
    expect(client.searchOne).not.toHaveBeenCalledWith('QuestionnaireResponse', expect.anything(), expect.anything());
  });
});
