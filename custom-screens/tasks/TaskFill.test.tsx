import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Patient, Practitioner, Questionnaire, ResourceType, Task } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { parseAnswerBackup, taskFillBackupKey } from '../visit-note/answerBackupRules';
import { TaskFill } from './TaskFill';

afterEach(() => window.sessionStorage.clear());

const questionnaire: Questionnaire = {
  resourceType: 'Questionnaire',
  id: 'q1',
  url: 'https://hearth.test/screening',
  status: 'active',
  title: 'Screening',
  item: [{ linkId: 'notes', text: 'Notes', type: 'string' }],
};
const patient: Patient = { resourceType: 'Patient', id: 'p1' };
const task: Task = {
  resourceType: 'Task',
  id: 't1',
  meta: { versionId: '1' },
  status: 'ready',
  intent: 'order',
  for: { reference: 'Patient/p1' },
  focus: { reference: 'Questionnaire/q1' },
};
const key = taskFillBackupKey('Practitioner/a', 't1');
const typed = () => parseAnswerBackup(window.sessionStorage.getItem(key))?.response.item?.[0]?.answer?.[0]?.valueString;

/** The calls TaskFill makes: the task's questionnaire and patient, who is signed in, and the submit. */
function fakeClient(profile: Practitioner) {
  const resources: Record<string, unknown> = { 'Questionnaire/q1': questionnaire, 'Patient/p1': patient };
  return {
    readResource: vi.fn(async (type: ResourceType, id: string) => resources[`${type}/${id}`]),
    executeBatch: vi.fn<(bundle: Bundle) => Promise<Bundle>>(),
    getActiveLogin: () => ({ accessToken: 't', profile: { reference: `Practitioner/${profile.id}` } }),
    getProfile: () => profile,
    getProject: () => undefined,
    getProjectMembership: () => undefined,
    getUserConfiguration: () => undefined,
    getLogins: () => [],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}

function renderFill(client: ReturnType<typeof fakeClient>) {
  const fhir = client as unknown as FhirClient;
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={fhir}>
        <ShellClientContext.Provider value={fhir}>
          <ToastProvider>
            <MemoryRouter initialEntries={['/task/t1/fill']}>
              <Routes>
                <Route path="/task/t1/fill" element={<TaskFill task={task} detailsPath="/task/t1/details" />} />
                <Route path="/task/t1/details" element={<p>Task details</p>} />
              </Routes>
            </MemoryRouter>
          </ToastProvider>
        </ShellClientContext.Provider>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

const submitButton = () => screen.getByRole('button', { name: 'Submit and complete task' });

describe('TaskFill: the answers are kept in the browser until the task is completed', () => {
  it('restores them after the page is opened again, with a notice and a way to discard them', async () => {
    const user = userEvent.setup({ delay: null });
    const client = fakeClient({ resourceType: 'Practitioner', id: 'a' });
    const first = renderFill(client);
    await user.type(await screen.findByLabelText('Notes'), 'Sleeps badly');
    expect(typed()).toBe('Sleeps badly');
    first.unmount();

    renderFill(client);
    expect(await screen.findByLabelText('Notes')).toHaveValue('Sleeps badly');
    const notice = screen.getByTestId('recovered-answers');
    expect(notice).toHaveTextContent('Recovered answers that were not saved');
    expect(notice).toHaveTextContent('They are not submitted yet.');

    await user.click(screen.getByRole('button', { name: 'Discard recovered answers' }));
    expect(screen.queryByTestId('recovered-answers')).toBeNull();
    expect(await screen.findByLabelText('Notes')).toHaveValue('');
    expect(window.sessionStorage.getItem(key)).toBeNull();
  });

  it('keeps them when the submit fails, and removes them once the task is completed', async () => {
    const user = userEvent.setup({ delay: null });
    const client = fakeClient({ resourceType: 'Practitioner', id: 'a' });
    client.executeBatch.mockRejectedValueOnce(new Error('Failed to fetch'));
    const first = renderFill(client);
    await user.type(await screen.findByLabelText('Notes'), 'Low mood most days');
    await user.click(submitButton());
    expect(await screen.findByText('Failed to fetch')).toBeInTheDocument();
    first.unmount();
    expect(typed()).toBe('Low mood most days');

    renderFill(client);
    expect(await screen.findByLabelText('Notes')).toHaveValue('Low mood most days');
    client.executeBatch.mockResolvedValueOnce({
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: [{ resource: { ...task, status: 'completed' } }],
    });
    await user.click(submitButton());
    expect(await screen.findByText('Task details')).toBeInTheDocument();
    const [bundle] = client.executeBatch.mock.calls[1];
    expect(bundle.entry?.[0].resource).toMatchObject({
      status: 'completed',
      item: [{ linkId: 'notes', answer: [{ valueString: 'Low mood most days' }] }],
    });
    expect(window.sessionStorage.getItem(key)).toBeNull();
  });

  it("does not show another account's answers", async () => {
    const user = userEvent.setup({ delay: null });
    const first = renderFill(fakeClient({ resourceType: 'Practitioner', id: 'a' }));
    await user.type(await screen.findByLabelText('Notes'), 'Typed by a');
    first.unmount();

    renderFill(fakeClient({ resourceType: 'Practitioner', id: 'b' }));
    expect(await screen.findByLabelText('Notes')).toHaveValue('');
    expect(screen.queryByTestId('recovered-answers')).toBeNull();
    await waitFor(() => expect(typed()).toBe('Typed by a'));
  });
});
