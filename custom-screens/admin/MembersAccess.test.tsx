import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Bundle, Project, ProjectMembership, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { MembersSection } from './MembersSection';

const frontDesk: AccessPolicy = { resourceType: 'AccessPolicy', id: 'a1', name: 'Front desk' };
const portal: AccessPolicy = { resourceType: 'AccessPolicy', id: 'a2', name: 'Patient portal' };

const membership = (id: string, profile: ProjectMembership['profile'], admin = false): ProjectMembership => ({
  resourceType: 'ProjectMembership',
  id,
  project: { reference: 'Project/demo' },
  user: { reference: `User/u-${id}` },
  profile,
  ...(admin ? { admin } : {}),
});

const memberships = [
  membership('alice', { reference: 'Practitioner/alice', display: 'Alice Admin' }, true),
  // Invited as a patient with "None": the server gives her the default patient access.
  membership('pat', { reference: 'Patient/pat', display: 'Pat Patient' }),
  // The super admin's User lives in the server's own project: not included for a project admin.
  membership('super', { reference: 'Practitioner/super', display: 'Super Admin (Demo Clinic)' }, true),
  // Neither the account nor an e-mail on the profile.
  membership('other', { reference: 'Practitioner/other', display: 'Other Admin' }),
];

const included: Resource[] = [
  { resourceType: 'User', id: 'u-alice', email: 'alice@demo.hearth.example' } as Resource,
  { resourceType: 'User', id: 'u-pat', email: 'pat@example.org' } as Resource,
  { resourceType: 'Practitioner', id: 'super', telecom: [{ system: 'email', value: 'admin@example.com' }] },
  { resourceType: 'Practitioner', id: 'other', name: [{ family: 'Other' }] },
  { resourceType: 'Patient', id: 'pat', telecom: [{ system: 'email', value: 'pat@example.org' }] },
];

function renderMembers(project: Project) {
  const bundle: Bundle = {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: [
      ...memberships.map((resource) => ({ resource })),
      ...included.map((resource) => ({ resource, search: { mode: 'include' as const } })),
    ],
  };
  const client = {
    search: vi.fn(async () => bundle),
    getProject: () => ({ resourceType: 'Project', id: 'demo', name: 'Demo Clinic' }),
    getBaseUrl: () => 'http://hearth.test/',
    readResource: vi.fn(async () => project),
    searchResources: vi.fn(async (type: string) => (type === 'AccessPolicy' ? [portal, frontDesk] : [])),
    get: vi.fn(async (url: URL) => {
      const id = String(url).split('/members/')[1];
      return id ? structuredClone(memberships.find((m) => m.id === id)) : { email: { delivery: 'outbox' } };
    }),
    post: vi.fn(),
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

const plainProject: Project = { resourceType: 'Project', id: 'demo', name: 'Demo Clinic' };
const portalProject: Project = {
  ...plainProject,
  defaultPatientAccessPolicy: { reference: 'AccessPolicy/a2', display: 'Patient portal' },
};

async function rowsOf(): Promise<(string | null)[][]> {
  const table = await screen.findByRole('table', { name: 'Project members' });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 3)
        .map((cell) => cell.textContent),
    );
}

async function chooseAccessPolicy(dialog: HTMLElement, name: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Access policy' }));
  fireEvent.click(await screen.findByRole('option', { name }));
}

const accessHint = (dialog: HTMLElement) =>
  within(dialog).getByRole('combobox', { name: 'Access policy' }).closest('.MuiFormControl-root')?.querySelector('p')
    ?.textContent;

describe('Members: what access applies, and whose e-mail', () => {
  it("names a patient's default access instead of full access, and the super admin's e-mail honestly", async () => {
    const client = renderMembers(plainProject);
    expect(client.search).toHaveBeenCalledWith(
      'ProjectMembership',
      expect.stringContaining('_include=ProjectMembership:profile'),
      { cache: 'no-cache' },
    );
    await waitFor(async () =>
      expect(await rowsOf()).toEqual([
        ['Alice Admin', 'alice@demo.hearth.example', 'None (full access)'],
        ['Other Admin', '(server administrator)', 'None (full access)'],
        ['Pat Patient', 'pat@example.org', 'Default patient access (own record)'],
        ['Super Admin (Demo Clinic)', 'admin@example.comProfile e-mail (server administrator)', 'None (full access)'],
      ]),
    );
  });

  it("names the project's default patient policy when it has one", async () => {
    renderMembers(portalProject);
    await waitFor(async () =>
      expect((await rowsOf())[2]).toEqual([
        'Pat Patient',
        'pat@example.org',
        'Patient portal (project default for patients)',
      ]),
    );
  });

  it('says in the member dialog what applies, and the hint follows the chosen policy', async () => {
    renderMembers(plainProject);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Pat Patient' }));
    let dialog = await screen.findByRole('dialog', { name: 'Member: Pat Patient' });
    await within(dialog).findByLabelText('Profile');
    await waitFor(() =>
      expect(accessHint(dialog)).toBe('None: as a patient, only their own record (read-only) and their own messages'),
    );
    expect(within(dialog).getByRole('combobox', { name: 'Access policy' })).toHaveTextContent(
      'Default patient access (own record)',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Edit Alice Admin' }));
    dialog = await screen.findByRole('dialog', { name: 'Member: Alice Admin' });
    await within(dialog).findByLabelText('Profile');
    expect(accessHint(dialog)).toBe('None: the whole project');
    await chooseAccessPolicy(dialog, 'Front desk');
    await waitFor(() => expect(accessHint(dialog)).toBe('Only what "Front desk" allows'));
    await chooseAccessPolicy(dialog, 'None (full access)');
    await waitFor(() => expect(accessHint(dialog)).toBe('None: the whole project'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The super admin's dialog says whose e-mail it shows.
    fireEvent.click(screen.getByRole('button', { name: 'Edit Super Admin (Demo Clinic)' }));
    dialog = await screen.findByRole('dialog', { name: 'Member: Super Admin (Demo Clinic)' });
    const email = within(dialog).getByLabelText("E-mail (the profile's)") as HTMLInputElement;
    expect(email.value).toBe('admin@example.com');
    expect(email).toHaveAccessibleDescription(
      "The sign-in account is a server administrator's: its address is not visible to the project",
    );
  });

  it('tells in the invite dialog what a patient without a policy gets, and offers her existing chart', async () => {
    renderMembers(portalProject);
    fireEvent.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a person' });
    await waitFor(() => expect(accessHint(dialog)).toBe('None: the whole project'));
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Role' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Patient' }));
    await waitFor(() =>
      expect(accessHint(dialog)).toBe(
        'None: as a patient, the project\'s default patient policy "Patient portal" applies',
      ),
    );
    expect(within(dialog).getByRole('combobox', { name: 'Access policy' })).toHaveTextContent(
      'Patient portal (project default for patients)',
    );
    expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveAccessibleDescription(
      'In the patient portal they see their own chart',
    );
    // A new chart unless the admin says otherwise; the existing one is a choice, not a dead end.
    const chart = within(dialog).getByRole('radiogroup', { name: 'Chart' });
    expect(within(chart).getByRole('radio', { name: 'New patient' })).toBeChecked();
    expect(within(chart).getByRole('radio', { name: 'Existing patient' })).not.toBeChecked();
    expect(dialog.textContent).not.toMatch(/cannot be linked/);
    await chooseAccessPolicy(dialog, 'Front desk');
    await waitFor(() => expect(accessHint(dialog)).toBe('Only what "Front desk" allows'));
  });
});
