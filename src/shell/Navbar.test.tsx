import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { FhirClient } from '../../data-provider/client';
import { Navbar } from './Navbar';
import { DEFAULT_MENUS } from './navigationMenus';
import { ShellClientContext } from './shellClient';

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname}</output>;
}

describe('Navbar', () => {
  it('the resource-type picker goes to the chosen type, closes a narrow navbar and empties itself', async () => {
    const onNavigate = vi.fn();
    render(
      <ShellClientContext.Provider value={{} as FhirClient}>
        <MemoryRouter initialEntries={['/Task']}>
          <Navbar menus={DEFAULT_MENUS} onNavigate={onNavigate} />
          <Location />
        </MemoryRouter>
      </ShellClientContext.Provider>,
    );
    const user = userEvent.setup();
    await user.type(screen.getByRole('combobox', { name: 'Resource Type' }), 'Observ');
    await user.click(await screen.findByRole('option', { name: 'Observation' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/Observation');
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('combobox', { name: 'Resource Type' })).toHaveValue('');

    await user.type(screen.getByRole('combobox', { name: 'Resource Type' }), 'Not a type');
    expect(await screen.findByText('No options')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/Observation');
  });
});
