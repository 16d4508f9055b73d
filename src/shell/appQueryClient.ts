import { QueryClient } from '@tanstack/react-query';

/**
 * The app's query cache. By default react-query holds back every request while the browser says it
 * is offline: a chart tab opened then showed its heading and no rows — no spinner, no error — which
 * a clinician could read as "no medications". Here each request is sent whatever the browser says
 * and fails visibly (the list's error, the offline notice), and a write is never held back to be
 * sent later, unseen, when the connection returns. Lists still reload when it does.
 */
export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { networkMode: 'always', refetchOnReconnect: true },
      mutations: { networkMode: 'always' },
    },
  });
}
