/**
 * Test support (not part of the public surface): what the app puts around the chat screens — the
 * query cache the senders' lookup shares, the client (under both of its contexts) and the toasts.
 */
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ShellClientContext, ToastProvider } from '../../src/shell';

export function ChatTestProviders({ client, children }: { client: FhirClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <ShellClientContext.Provider value={client}>
          <ToastProvider>{children}</ToastProvider>
        </ShellClientContext.Provider>
      </FhirClientContext.Provider>
    </QueryClientProvider>
  );
}
