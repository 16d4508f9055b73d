import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, Link, MemoryRouter, RouterProvider } from 'react-router-dom';
import { NotificationContextProvider, UndoableMutationsContextProvider } from 'react-admin';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { ChargeItem, Resource } from '@medplum/fhirtypes';
import type { FhirClient, RequestOptions } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { NotificationBridge } from '../shell/NotificationBridge';
import { ToastProvider } from '../shell/toasts';
import { ResourceEditor } from './ResourceEditor';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const loader = new SchemaLoader(recordedSource());

const opened: ChargeItem = {
  resourceType: 'ChargeItem',
  id: 'ci1',
  meta: { versionId: '1' },
  status: 'billable',
  code: { text: 'Office visit' },
  subject: { reference: 'Patient/p1' },
};

/** A server of one ChargeItem with versions, honouring If-Match as the real one does (412 on a stale version). */
function versionedServer(initial: ChargeItem) {
  let stored: Resource = structuredClone(initial);
  const write = (next: Resource, options: RequestOptions = {}): Resource => {
    const ifMatch = options.headers?.['If-Match'];
    if (ifMatch && ifMatch !== `W/"${stored.meta?.versionId}"`) {
      throw new OperationOutcomeError(
        {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'conflict', details: { text: `Version mismatch: If-Match ${ifMatch}` } }],
        },
        412,
      );
    }
    stored = { ...next, meta: { versionId: String(Number(stored.meta?.versionId) + 1) } };
    return structuredClone(stored);
  };
  const client = {
    getAccessPolicy: () => undefined,
    isSuperAdmin: () => true,
    searchResources: async () => [],
    valueSetExpand: async () => ({ resourceType: 'ValueSet', status: 'active', expansion: { contains: [] } }),
    readResource: vi.fn(async () => structuredClone(stored)),
    updateResource: vi.fn(async (resource: Resource, options?: RequestOptions) => write(resource, options)),
    patchResource: vi.fn(async () => {
      throw new Error('not expected');
    }),
    createResource: vi.fn(async (resource: Resource) => resource),
  } as unknown as FhirClient;
  setSchemaLoader(client, loader);
  return {
    client,
    stored: () => stored as ChargeItem,
    /** Another user's save, made after this form was opened. */
    otherUserSaves: (change: Partial<ChargeItem>) => write({ ...stored, ...change } as Resource),
  };
}

function providers(client: FhirClient, children: ReactNode) {
  return (
    <ToastProvider>
      <NotificationContextProvider>
        <UndoableMutationsContextProvider>
          <NotificationBridge />
          <QueryClientProvider client={new QueryClient()}>
            <FhirClientContext.Provider value={client}>{children}</FhirClientContext.Provider>
          </QueryClientProvider>
        </UndoableMutationsContextProvider>
      </NotificationContextProvider>
    </ToastProvider>
  );
}

function renderEditor(client: FhirClient, resource: Resource) {
  render(
    providers(
      client,
      <MemoryRouter>
        <ResourceEditor resource={resource} />
      </MemoryRouter>,
    ),
  );
  return userEvent.setup({ delay: null });
}

/** The editor inside a data router, as in the app, with a link elsewhere (a tab, the menu). */
function renderEditorInApp(client: FhirClient, resource: Resource) {
  const router = createMemoryRouter(
    [
      {
        path: '/ChargeItem/ci1/edit',
        element: (
          <>
            <Link to="/ChargeItem/ci1/details">Details</Link>
            <ResourceEditor resource={resource} />
          </>
        ),
      },
      { path: '/ChargeItem/ci1/details', element: <h1>ChargeItem details</h1> },
    ],
    { initialEntries: ['/ChargeItem/ci1/edit'] },
  );
  render(providers(client, <RouterProvider router={router} />));
  return { user: userEvent.setup({ delay: null }), router };
}

describe('ResourceEditor keeps the user from losing data', { timeout: 60_000 }, () => {
  it('refuses a stale update with If-Match: the other user’s change stays, the typed value stays, a retry on their version saves', async () => {
    const server = versionedServer(opened);
    const user = renderEditor(server.client, opened);
    const factor = await screen.findByLabelText('Factor Override');
    // The admin saves an override reason while alice's form is open on version 1.
    server.otherUserSaves({ overrideReason: 'Courtesy discount' });
    await user.type(factor, '0.8');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findAllByText('Another user modified this ChargeItem since you opened it.')).not.toHaveLength(
      0,
    );
    expect(server.client.updateResource).toHaveBeenCalledWith(expect.anything(), {
      headers: { 'If-Match': 'W/"1"' },
    });
    // Nothing overwritten, nothing lost.
    expect(server.stored()).toMatchObject({ overrideReason: 'Courtesy discount', meta: { versionId: '2' } });
    expect(server.stored().factorOverride).toBeUndefined();
    expect(screen.getByLabelText('Factor Override')).toHaveValue(0.8);
    expect(screen.queryByText('Updated')).toBeNull();
    // The alert says what they changed and offers their version, after a confirm.
    expect(await screen.findByText(/They changed overrideReason/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Load their version' }));
    const dialog = await screen.findByRole('dialog', { name: 'Load their version?' });
    await user.click(within(dialog).getByRole('button', { name: 'Discard and load' }));
    await waitFor(() => expect(screen.getByLabelText('Override Reason')).toHaveValue('Courtesy discount'));
    expect(screen.queryByText(/They changed/)).toBeNull();

    // The retry on their version goes through and keeps both changes.
    await user.type(screen.getByLabelText('Factor Override'), '0.8');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Updated')).toBeVisible();
    expect(server.client.updateResource).toHaveBeenLastCalledWith(expect.anything(), {
      headers: { 'If-Match': 'W/"2"' },
    });
    expect(server.stored()).toMatchObject({
      overrideReason: 'Courtesy discount',
      factorOverride: 0.8,
      meta: { versionId: '3' },
    });
  });

  it('sends nothing for an Update that changes nothing, and says so', async () => {
    const server = versionedServer(opened);
    const user = renderEditor(server.client, opened);
    await user.click(await screen.findByRole('button', { name: 'Update' }));
    expect(await screen.findByText('No changes to save')).toBeVisible();
    // A change undone is no change either.
    const reason = screen.getByLabelText('Override Reason');
    await user.type(reason, 'x');
    await user.clear(reason);
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getAllByText('No changes to save')).toHaveLength(2));
    expect(server.client.updateResource).not.toHaveBeenCalled();
    expect(server.client.patchResource).not.toHaveBeenCalled();
    expect(server.stored().meta?.versionId).toBe('1');
  });

  it('asks "Discard unsaved changes?" before navigating away from a changed form', async () => {
    const server = versionedServer(opened);
    const { user, router } = renderEditorInApp(server.client, opened);
    // Untouched: leaving asks nothing.
    await screen.findByLabelText('Override Reason');
    const clean = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);

    await user.type(screen.getByLabelText('Override Reason'), 'Courtesy discount');
    await user.click(screen.getByRole('link', { name: 'Details' }));
    const prompt = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(prompt).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/ChargeItem/ci1/edit');
    expect(screen.getByLabelText('Override Reason')).toHaveValue('Courtesy discount');

    // A reload or closing the tab: the browser's own prompt.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await user.click(screen.getByRole('link', { name: 'Details' }));
    const again = await screen.findByRole('dialog', { name: 'Discard unsaved changes?' });
    await user.click(within(again).getByRole('button', { name: 'Discard' }));
    expect(await screen.findByRole('heading', { name: 'ChargeItem details' })).toBeVisible();
    expect(server.client.updateResource).not.toHaveBeenCalled();
  });

  it('leaves without asking after the changes were saved', async () => {
    const server = versionedServer(opened);
    const { user, router } = renderEditorInApp(server.client, opened);
    await user.type(await screen.findByLabelText('Override Reason'), 'Courtesy discount');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    // The editor goes to the saved resource's page itself; no prompt stands in the way.
    await waitFor(() => expect(router.state.location.pathname).toBe('/ChargeItem/ci1/details'));
    expect(screen.queryByRole('dialog')).toBeNull();
    await act(async () => {});
  });
});
