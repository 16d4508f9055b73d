import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FhirClient } from '../../data-provider/client';
import { OfflineNotice } from './OfflineNotice';
import { ShellClientContext } from './shellClient';
import { ToastProvider } from './toasts';

function renderNotice() {
  const client = new EventTarget() as unknown as FhirClient;
  render(
    <ShellClientContext.Provider value={client}>
      <ToastProvider>
        <OfflineNotice />
      </ToastProvider>
    </ShellClientContext.Provider>,
  );
  return client;
}

describe('the offline notice', () => {
  it('stays while offline and closes, saying so, when the browser is back online', async () => {
    const client = renderNotice();
    act(() => {
      client.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText('No connection to server')).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Connection restored')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('No connection to server')).toBeNull());
  });

  it("shows the notice on the browser's own offline signal, before any request fails", async () => {
    renderNotice();
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText('No connection to server')).toBeInTheDocument();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Connection restored')).toBeInTheDocument();
  });

  it('says nothing on an online event when it had not said it was offline', async () => {
    renderNotice();
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Connection restored')).toBeNull();
  });
});
