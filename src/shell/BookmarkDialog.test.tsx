import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { UserConfiguration } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { OperationOutcomeError, badRequest } from '../../data-provider/outcomes';
import { BookmarkDialog } from './BookmarkDialog';
import { ShellClientContext } from './shellClient';
import { ToastProvider } from './toasts';
import { DEFAULT_MENUS } from './navigationMenus';

const config: UserConfiguration = { resourceType: 'UserConfiguration', id: 'c1', menu: DEFAULT_MENUS };

// Only the calls the dialog makes; the rest of the client is not needed here.
function renderDialog(client: Record<string, unknown>, onClose = vi.fn()) {
  render(
    <ShellClientContext.Provider value={client as unknown as FhirClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/Task?status=ready']}>
          <BookmarkDialog open menus={DEFAULT_MENUS} onClose={onClose} />
        </MemoryRouter>
      </ToastProvider>
    </ShellClientContext.Provider>,
  );
  return onClose;
}

async function fillAndSubmit(name: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('combobox', { name: /Menu option/ }));
  await user.click(await screen.findByRole('option', { name: 'Charts' }));
  await user.type(screen.getByRole('textbox', { name: /Bookmark name/ }), name);
  await user.click(screen.getByRole('button', { name: 'OK' }));
}

describe('BookmarkDialog', () => {
  it('requires a menu option and a name, and saves nothing without them', async () => {
    const updateResource = vi.fn();
    renderDialog({ getUserConfiguration: () => config, updateResource });
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.getByText('Menu option is required')).toBeInTheDocument();
    expect(screen.getByText('Bookmark name is required')).toBeInTheDocument();
    expect(updateResource).not.toHaveBeenCalled();
  });

  it('PUTs the configuration with the current page as a link, then says Success', async () => {
    const updateResource = vi.fn(async (resource: UserConfiguration) => resource);
    const refreshProfile = vi.fn(async () => undefined);
    const onClose = renderDialog({ getUserConfiguration: () => config, updateResource, refreshProfile });
    await fillAndSubmit('Ready tasks');
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saved = updateResource.mock.calls[0][0];
    expect(saved.menu?.[0].link?.at(-1)).toEqual({ name: 'Ready tasks', target: '/Task?status=ready' });
    expect(refreshProfile).toHaveBeenCalled();
    expect(await screen.findByText('Success')).toBeInTheDocument();
  });

  it('shows the server error in a toast and keeps the dialog open', async () => {
    const updateResource = vi.fn(async () => {
      throw new OperationOutcomeError(badRequest('Forbidden: your access policy does not allow update'), 403);
    });
    const onClose = renderDialog({ getUserConfiguration: () => config, updateResource });
    await fillAndSubmit('Ready tasks');
    expect(await screen.findByText('Forbidden: your access policy does not allow update')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
