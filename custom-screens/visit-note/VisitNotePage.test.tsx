import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Patient, Practitioner, ResourceType } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext } from '../../src/shell/shellClient';
import { ToastProvider } from '../../src/shell/toasts';
import { soapNoteMenopauseQuestionnaire } from '../../config/questionnaires';
import { VisitNotePage } from './VisitNotePage';

afterEach(() => window.sessionStorage.clear());

const patient: Patient = { resourceType: 'Patient', id: 'p1', name: [{ given: ['Ada'], family: 'Lovelace' }] };
const alice: Practitioner = { resourceType: 'Practitioner', id: 'a', name: [{ given: ['Alice'], family: 'Carter' }] };

/**
 * The visit note's calls: its questionnaire, the patient, open tasks and drafts (none), the chart
 * header's searches (none found), the submit.
 */
function fakeClient() {
  return {
    searchOne: vi.fn(async (type: ResourceType) =>
      type === 'Questionnaire' ? { ...soapNoteMenopauseQuestionnaire, id: 'q1' } : undefined,
    ),
    searchResources: vi.fn(async () => []),
    readResource: vi.fn(async (type: ResourceType, id: string) =>
      type === 'Patient' && id === 'p1' ? patient : undefined,
    ),
    createResource: vi.fn(async (resource: object) => ({ ...resource, id: 'd1', meta: { versionId: '1' } })),
    updateResource: vi.fn(async (resource: object) => ({ ...resource, meta: { versionId: '2' } })),
    executeBatch: vi.fn(async (): Promise<Bundle> => ({
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: [
        { response: { status: '201', location: 'QuestionnaireResponse/r9/_history/1' } },
        { response: { status: '201', location: 'Task/t9/_history/1' } },
      ],
    })),
    getActiveLogin: () => ({ accessToken: 't', profile: { reference: 'Practitioner/a' } }),
    getProfile: () => alice,
    getProject: () => undefined,
    // The chart header's task search, which Required actions shares to say which tasks it leaves out.
    getAccessPolicy: () => undefined,
    isSuperAdmin: () => false,
    getProjectMembership: () => undefined,
    getUserConfiguration: () => undefined,
    getLogins: () => [],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}

/** The page inside a scrolling container, as the shell's `main` is. */
function renderPage(client: ReturnType<typeof fakeClient>) {
  const fhir = client as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={fhir}>
        <ShellClientContext.Provider value={fhir}>
          <ToastProvider>
            <MemoryRouter initialEntries={['/Patient/p1/encounter']}>
              <main data-testid="scroller" style={{ overflow: 'auto', height: 400 }}>
                <Routes>
                  <Route path="/Patient/:patientId/encounter" element={<VisitNotePage />} />
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

describe('VisitNotePage: after the note is submitted', () => {
  it('goes back to the top of the page and moves focus to the confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const client = fakeClient();
    const scroller = renderPage(client);
    const form = await screen.findByRole('form', { name: 'SOAP Note - Menopause Service' });
    // Where the Submit button is, at the foot of the long form.
    scroller.scrollTop = 1800;
    expect(scroller.scrollTop).toBe(1800);
    await user.click(within(form).getByRole('button', { name: 'Submit' }));

    const heading = await screen.findByRole('heading', { level: 2, name: 'Visit note submitted' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(scroller.scrollTop).toBe(0);
    expect(screen.queryByRole('form')).toBeNull();
    const confirmation = heading.closest('[role="status"]') as HTMLElement;
    expect(within(confirmation).getByRole('link', { name: 'Open follow-up task' })).toHaveAttribute(
      'href',
      '/Patient/p1/task/t9/details',
    );
    expect(within(confirmation).getByRole('link', { name: 'View the note' })).toHaveAttribute(
      'href',
      '/Patient/p1/QuestionnaireResponse/r9',
    );
  });
});
