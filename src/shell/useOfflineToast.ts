import { useEffect } from 'react';
import { useShellClient } from './shellClient';
import { useToast } from './toasts';

/** The toast id of the offline notice: shown once however many requests fail. */
export const OFFLINE_TOAST_KEY = 'offline';

/** A persistent red 'No connection to server' toast whenever the client reports a request got no answer. */
export function useOfflineToast(): void {
  const client = useShellClient();
  const toast = useToast();
  useEffect(() => {
    const onOffline = () => toast.error('No connection to server', { key: OFFLINE_TOAST_KEY, persist: true });
    client.addEventListener('offline', onOffline);
    return () => client.removeEventListener('offline', onOffline);
  }, [client, toast]);
}
