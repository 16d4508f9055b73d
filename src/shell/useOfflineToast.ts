import { useEffect } from 'react';
import { useShellClient } from './shellClient';
import { useToast } from './toasts';

/** The toast id of the offline notice: shown once however many requests fail. */
export const OFFLINE_TOAST_KEY = 'offline';

/**
 * A persistent red 'No connection to server' toast whenever the client reports a request got no
 * answer or the browser says it went offline, closed when the browser is back online (it stayed,
 * next to working screens, until closed by hand). The browser's own signal matters: a screen that
 * sends nothing while offline would otherwise look like one with nothing to show.
 */
export function useOfflineToast(): void {
  const client = useShellClient();
  const toast = useToast();
  useEffect(() => {
    let shown = false;
    const onOffline = () => {
      shown = true;
      toast.error('No connection to server', { key: OFFLINE_TOAST_KEY, persist: true });
    };
    const onOnline = () => {
      if (!shown) return;
      shown = false;
      toast.close(OFFLINE_TOAST_KEY);
      toast.success('Connection restored');
    };
    client.addEventListener('offline', onOffline);
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    return () => {
      client.removeEventListener('offline', onOffline);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
    };
  }, [client, toast]);
}
