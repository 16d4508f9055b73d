import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { Bundle, ProjectMembership } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { MembersSection } from './MembersSection';

const ben: ProjectMembership = {
  resourceType: 'ProjectMembership',
  id: 'm1',
  project: { reference: 'Project/demo' },
  user: { reference: 'User/u1' },
  profile: { reference: 'Practitioner/p1', display: 'Ben Front' },
};

const alice: ProjectMembership = {
  resourceType: 'ProjectMembership',
  id: 'm2',
  project: { reference: 'Project/demo' },
  user: { reference: 'User/u2' },
  profile: { reference: 'Practitioner/p2', display: 'Alice Admin' },
  admin: true,
};

type Save = (membership: ProjectMembership) => Promise<ProjectMembership>;

/** The Members section over a server holding Ben and Alice; `save` answers a member's save. */
function renderMembers(save: Save = async (membership) => membership) {
  const stored = new Map([ben, alice].map((membership) => [membership.id as string, membership]));
  const bundle = (): Bundle => ({
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [...stored.values()].map((resource) => ({ resource })),
  });
  const client = {
    search: vi.fn(async () => bundle()),
    getProject: () => ({ resourceType: 'Project', id: 'demo', name: 'Demo Clinic' }),
    getBaseUrl: () => 'http://hearth.test/',
    searchResources: vi.fn(async () => []),
    get: vi.fn(async (url: URL) => {
      const id = String(url).split('/members/')[1];
      return id ? structuredClone(stored.get(id)) : { email: { delivery: 'outbox' } };
    }),
    post: vi.fn(async (_url: URL, membership: ProjectMembership) => {
      const saved = await save(membership);
      stored.set(saved.id as string, saved);
      return saved;
    }),
  } as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>
          <MembersSection />
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return client;
}

async function openMember(name: string): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole('button', { name: `Edit ${name}` }));
  const dialog = await screen.findByRole('dialog', { name: `Member: ${name}` });
  await within(dialog).findByLabelText('Profile');
  return dialog;
}

async function escape(dialog: HTMLElement) {
  fireEvent.keyDown(dialog, { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

/** MUI closes on a press that starts and ends on the area around the dialog's paper. */
async function clickBeside(dialog: HTMLElement) {
  const beside = dialog.parentElement as HTMLElement;
  fireEvent.mouseDown(beside);
  fireEvent.click(beside);
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
}

const profile = (dialog: HTMLElement) => (within(dialog).getByLabelText('Profile') as HTMLInputElement).value;
const checked = (dialog: HTMLElement, label: string) =>
  (within(dialog).getByLabelText(label) as HTMLInputElement).checked;

/** Ben's unsaved choices: another profile, promoted to admin, no longer active. */
function chooseForBen(dialog: HTMLElement) {
  fireEvent.change(within(dialog).getByLabelText('Profile'), { target: { value: 'Practitioner/p9' } });
  fireEvent.click(within(dialog).getByLabelText('Project admin'));
  fireEvent.click(within(dialog).getByLabelText('Active (may sign in)'));
}

function expectBenChoices(dialog: HTMLElement) {
  expect(profile(dialog)).toBe('Practitioner/p9');
  expect(checked(dialog, 'Project admin')).toBe(true);
  expect(checked(dialog, 'Active (may sign in)')).toBe(false);
}

function expectBenSaved(dialog: HTMLElement) {
  expect(profile(dialog)).toBe('Practitioner/p1');
  expect(checked(dialog, 'Project admin')).toBe(false);
  expect(checked(dialog, 'Active (may sign in)')).toBe(true);
}

describe('MemberDialog closed by mistake', () => {
  it('shows the unsaved choices again when the same member is reopened after Escape or a click beside it', async () => {
    const client = renderMembers();
    let dialog = await openMember('Ben Front');
    chooseForBen(dialog);
    await escape(dialog);

    dialog = await openMember('Ben Front');
    expectBenChoices(dialog);
    await clickBeside(dialog);

    dialog = await openMember('Ben Front');
    expectBenChoices(dialog);
    expect(client.post).not.toHaveBeenCalled();
  });

  it("shows another member's saved state, and each member's choices only in that member's dialog", async () => {
    renderMembers();
    let dialog = await openMember('Ben Front');
    chooseForBen(dialog);
    await escape(dialog);

    dialog = await openMember('Alice Admin');
    expect(profile(dialog)).toBe('Practitioner/p2');
    expect(checked(dialog, 'Project admin')).toBe(true);
    expect(checked(dialog, 'Active (may sign in)')).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Profile'), { target: { value: 'Practitioner/p7' } });
    await escape(dialog);

    dialog = await openMember('Alice Admin');
    expect(profile(dialog)).toBe('Practitioner/p7');
    expect(checked(dialog, 'Project admin')).toBe(true);
  });

  it('discards the choices on Cancel: the next opening reads the saved membership', async () => {
    const client = renderMembers();
    let dialog = await openMember('Ben Front');
    chooseForBen(dialog);
    await escape(dialog);
    dialog = await openMember('Ben Front');
    expectBenChoices(dialog);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await openMember('Ben Front');
    expectBenSaved(dialog);
    expect(client.post).not.toHaveBeenCalled();
  });

  it('keeps the choices and the error of a refused save, also after Escape', async () => {
    const refuse = vi.fn<Save>(async () => {
      throw new OperationOutcomeError(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'invalid', details: { text: 'Refused by server' } }],
        },
        400,
      );
    });
    renderMembers(refuse);
    let dialog = await openMember('Ben Front');
    chooseForBen(dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Refused by server')).toBeTruthy();
    expect(refuse).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'm1', profile: { reference: 'Practitioner/p9' }, admin: true, active: false }),
    );
    expectBenChoices(dialog);
    await escape(dialog);

    dialog = await openMember('Ben Front');
    expect(within(dialog).getByText('Refused by server')).toBeTruthy();
    expectBenChoices(dialog);
  });

  it('clears the draft on a successful save: the next opening reads what was saved', async () => {
    const client = renderMembers();
    let dialog = await openMember('Ben Front');
    fireEvent.click(within(dialog).getByLabelText('Project admin'));
    await escape(dialog);
    dialog = await openMember('Ben Front');
    fireEvent.click(within(dialog).getByLabelText('Active (may sign in)'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved Ben Front')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.post).toHaveBeenCalledTimes(1);

    const reads = vi.mocked(client.get).mock.calls.length;
    dialog = await openMember('Ben Front');
    expect(vi.mocked(client.get).mock.calls.length).toBe(reads + 1);
    expect(checked(dialog, 'Project admin')).toBe(true);
    expect(checked(dialog, 'Active (may sign in)')).toBe(false);
  });
});
