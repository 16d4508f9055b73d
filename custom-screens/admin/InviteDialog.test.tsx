import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Patient, Project, ProjectMembership } from '@medplum/fhirtypes';
import type { FhirClient, InviteRequest } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { InviteDialog } from './InviteDialog';

const project: Project = { resourceType: 'Project', id: 'demo', name: 'Demo Clinic' };

// Two charts of the same name: the picker's quiet line (birth date) tells them apart.
const maria: Patient = {
  resourceType: 'Patient',
  id: 'maria',
  name: [{ given: ['Maria'], family: 'Registered' }],
  birthDate: '1980-04-02',
  telecom: [{ system: 'email', value: 'maria@chart.example' }],
};
const namesake: Patient = {
  resourceType: 'Patient',
  id: 'namesake',
  name: [{ given: ['Maria'], family: 'Registered' }],
  birthDate: '2001-09-30',
};

type Invite = (projectId: string, request: InviteRequest) => Promise<ProjectMembership>;

/** The dialog over a client whose Patient search finds both Marias; `invite` answers the invitation. */
function renderDialog(invite: Invite) {
  const onClose = vi.fn();
  const client = {
    getProject: () => ({ resourceType: 'Project', id: 'demo', name: 'Demo Clinic' }),
    getBaseUrl: () => 'http://hearth.test/',
    readResource: vi.fn(async (type: string, id: string) =>
      type === 'Project' ? project : [maria, namesake].find((patient) => patient.id === id),
    ),
    searchResources: vi.fn(async (type: string) => (type === 'Patient' ? [maria, namesake] : [])),
    get: vi.fn(async () => ({ email: { delivery: 'smtp' } })),
    invite: vi.fn(invite),
  } as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <InviteDialog open onClose={onClose} />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { client, onClose, dialog: screen.getByRole('dialog', { name: 'Invite a person' }) };
}

const field = (dialog: HTMLElement, label: RegExp) => within(dialog).getByLabelText(label) as HTMLInputElement;

/** Role Patient, "Existing patient", and the first Maria picked from the search. */
async function pickMaria(dialog: HTMLElement) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Role' }));
  fireEvent.click(await screen.findByRole('option', { name: 'Patient' }));
  expect(within(dialog).queryByRole('combobox', { name: 'Patient' })).toBeNull();
  fireEvent.click(within(dialog).getByRole('radio', { name: 'Existing patient' }));
  const picker = within(dialog).getByRole('combobox', { name: 'Patient' });
  const user = userEvent.setup({ delay: null });
  await user.type(picker, 'Maria');
  const options = await screen.findAllByRole('option', { name: /Maria Registered/ });
  expect(options).toHaveLength(2);
  expect(options[0]).toHaveAttribute('title', 'Patient/maria');
  await user.click(options[0]);
  await waitFor(() => expect(picker).toHaveValue('Maria Registered'));
  return picker;
}

describe('InviteDialog: inviting a patient onto her existing chart', () => {
  it('picks the chart, fills the fields left empty from it, and sends the reference', async () => {
    const { client, onClose, dialog } = renderDialog(async (_projectId, request) => ({
      resourceType: 'ProjectMembership',
      id: 'm-new',
      project: { reference: 'Project/demo' },
      user: { reference: 'User/u-new', display: request.email },
      profile: { reference: 'Patient/maria', display: 'Maria Registered' },
    }));
    // The e-mail she will sign in with, typed before the chart is picked: kept.
    fireEvent.change(field(dialog, /^Email/), { target: { value: 'maria.portal@example.org' } });
    await pickMaria(dialog);
    await waitFor(() => expect(field(dialog, /^First name/).value).toBe('Maria'));
    expect(field(dialog, /^Last name/).value).toBe('Registered');
    expect(field(dialog, /^Email/).value).toBe('maria.portal@example.org');
    expect(client.readResource).toHaveBeenCalledWith('Patient', 'maria');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(client.invite).toHaveBeenCalledWith('demo', {
      resourceType: 'Patient',
      firstName: 'Maria',
      lastName: 'Registered',
      email: 'maria.portal@example.org',
      admin: false,
      sendEmail: true,
      membership: { profile: { reference: 'Patient/maria' } },
    });
    expect(onClose).toHaveBeenCalledWith(
      'Maria Registered was added and an invitation e-mail was sent to maria.portal@example.org.',
    );
  });

  it("shows the server's refusal under the picker and keeps the form as it was", async () => {
    const { client, onClose, dialog } = renderDialog(async () => {
      throw new OperationOutcomeError(
        {
          resourceType: 'OperationOutcome',
          issue: [
            {
              severity: 'error',
              code: 'duplicate',
              details: { text: 'This patient already has a portal account' },
              expression: ['membership.profile'],
            },
          ],
        },
        409,
      );
    });
    const picker = await pickMaria(dialog);
    await waitFor(() => expect(field(dialog, /^Email/).value).toBe('maria@chart.example'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));

    await waitFor(() => expect(picker).toHaveAccessibleDescription('This patient already has a portal account'));
    expect(picker).toHaveAttribute('aria-invalid', 'true');
    expect(client.invite).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();
    // Not a general alert: the message is where the problem is.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(picker).toHaveValue('Maria Registered');
    expect(within(dialog).getByRole('radio', { name: 'Existing patient' })).toBeChecked();
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Patient');
    expect([
      field(dialog, /^First name/).value,
      field(dialog, /^Last name/).value,
      field(dialog, /^Email/).value,
    ]).toEqual(['Maria', 'Registered', 'maria@chart.example']);
  });

  it('asks for the chart before sending when "Existing patient" is chosen without one', async () => {
    const { client, dialog } = renderDialog(async () => {
      throw new Error('not sent');
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Role' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Patient' }));
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Existing patient' }));
    fireEvent.change(field(dialog, /^First name/), { target: { value: 'Maria' } });
    fireEvent.change(field(dialog, /^Last name/), { target: { value: 'Registered' } });
    fireEvent.change(field(dialog, /^Email/), { target: { value: 'maria@example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invite' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Patient' })).toHaveAccessibleDescription(
        "Choose the patient's chart",
      ),
    );
    expect(client.invite).not.toHaveBeenCalled();
  });
});
