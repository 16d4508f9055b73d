import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { Bundle } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import AdminProjectPage from './AdminProjectPage';

const members: Bundle = {
  resourceType: 'Bundle',
  type: 'searchset',
  entry: [
    {
      resource: {
        resourceType: 'ProjectMembership',
        id: 'm1',
        project: { reference: 'Project/demo' },
        user: { reference: 'User/u1' },
        profile: { reference: 'Practitioner/p1', display: 'Ben Front' },
        accessPolicy: { reference: 'AccessPolicy/a1', display: 'Front desk' },
      },
    },
    {
      resource: {
        resourceType: 'ProjectMembership',
        id: 'm2',
        project: { reference: 'Project/demo' },
        user: { reference: 'User/u2' },
        profile: { reference: 'Practitioner/p2', display: 'Alice Admin' },
        admin: true,
      },
    },
    {
      resource: {
        resourceType: 'User',
        id: 'u1',
        firstName: 'Ben',
        lastName: 'Front',
        email: 'ben@demo.hearth.example',
      },
      search: { mode: 'include' },
    },
    {
      resource: {
        resourceType: 'User',
        id: 'u2',
        firstName: 'Alice',
        lastName: 'Admin',
        email: 'alice@demo.hearth.example',
      },
      search: { mode: 'include' },
    },
  ],
};

function renderPage(admin: boolean) {
  const search = vi.fn(async () => members);
  const client = {
    search,
    getProject: () => ({ resourceType: 'Project', id: 'demo', name: 'Demo Clinic' }),
    isProjectAdmin: () => admin,
    isSuperAdmin: () => false,
  } as unknown as FhirClient;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>
          <AdminProjectPage />
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return search;
}

describe('AdminProjectPage', () => {
  it('lists members by profile name with e-mail, access policy and admin flag, not User/<uuid>', async () => {
    const search = renderPage(true);
    expect(screen.getByText('Demo Clinic')).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Project members' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Alice Admin', 'alice@demo.hearth.example', 'None (full access)', 'Admin'],
      ['Ben Front', 'ben@demo.hearth.example', 'Front desk', 'No'],
    ]);
    expect(table.textContent).not.toMatch(/User\//);
    expect(search).toHaveBeenCalledWith(
      'ProjectMembership',
      expect.stringContaining('_include=ProjectMembership:user'),
      {
        cache: 'no-cache',
      },
    );
  });

  it('tells a member who is not an admin, and loads nothing', () => {
    const search = renderPage(false);
    expect(screen.getByText("Only the project's admins can see its administration.")).toBeTruthy();
    expect(search).not.toHaveBeenCalled();
  });
});
