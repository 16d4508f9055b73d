import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { FhirClient } from '../../data-provider/client';
import { GlobalSearch } from './GlobalSearch';
import { ShellClientContext } from './shellClient';

function Location() {
  return <output aria-label="location">{useLocation().pathname}</output>;
}

const homer = { resourceType: 'Patient', id: 'p1', name: [{ given: ['Homer'], family: 'Simpson' }] };
const marge = { resourceType: 'Patient', id: 'p2', name: [{ given: ['Marge'], family: 'Simpson' }] };

function renderSearch(patients: unknown[]) {
  const graphql = vi.fn(async () => ({ data: { Patients1: patients, Patients2: [], ServiceRequestList: [] } }));
  render(
    <ShellClientContext.Provider value={{ graphql } as unknown as FhirClient}>
      <MemoryRouter initialEntries={['/']}>
        <GlobalSearch />
        <Routes>
          <Route path="*" element={<Location />} />
        </Routes>
      </MemoryRouter>
    </ShellClientContext.Provider>,
  );
  return graphql;
}

describe('GlobalSearch', () => {
  it('opens the only match on Enter, without choosing it from the list first', async () => {
    const user = userEvent.setup();
    const graphql = renderSearch([homer]);
    await user.type(screen.getByRole('combobox', { name: 'Search patients and service requests' }), 'Homer');
    await waitFor(() => expect(graphql).toHaveBeenCalled());
    await screen.findByRole('option', { name: /Homer Simpson/ });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/Patient/p1'));
  });

  it('opens the only match when Enter comes before the answer', async () => {
    const user = userEvent.setup();
    renderSearch([homer]);
    await user.type(screen.getByRole('combobox', { name: 'Search patients and service requests' }), 'Homer{Enter}');
    await waitFor(() => expect(screen.getByLabelText('location').textContent).toBe('/Patient/p1'));
  });

  it('does not guess between several matches: Enter stays on the page', async () => {
    const user = userEvent.setup();
    renderSearch([homer, marge]);
    await user.type(screen.getByRole('combobox', { name: 'Search patients and service requests' }), 'Simpson');
    await screen.findByRole('option', { name: /Marge Simpson/ });
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('location').textContent).toBe('/');
  });
});
