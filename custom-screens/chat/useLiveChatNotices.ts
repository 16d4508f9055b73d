import { useEffect, useRef } from 'react';
import { subscriptionManagerFor, useShellClient, useToast } from '../../src/shell';

export const DISCONNECTED_NOTICE = 'Live chat disconnected. Attempting to reconnect...';
export const RECONNECTED_NOTICE = 'Live chat reconnected.';
const DISCONNECTED_KEY = 'live-chat-disconnected';

/**
 * The chat connection's notices (app-spec §4, §8): red while the socket is down (it stays until
 * the socket is back), green once it is back, and then `reload` so nothing sent meanwhile is
 * missed.
 */
export function useLiveChatNotices(reload: () => void | Promise<void>): void {
  const client = useShellClient();
  const toast = useToast();
  const reloadRef = useRef(reload);
  reloadRef.current = reload;
  useEffect(() => {
    const manager = subscriptionManagerFor(client);
    if (!manager) return undefined;
    let down = false;
    const offDisconnect = manager.on('disconnect', () => {
      if (down) return;
      down = true;
      toast.error(DISCONNECTED_NOTICE, { persist: true, key: DISCONNECTED_KEY });
    });
    const offConnect = manager.on('connect', ({ reconnected }) => {
      if (!reconnected && !down) return;
      down = false;
      toast.close(DISCONNECTED_KEY);
      toast.success(RECONNECTED_NOTICE);
      void reloadRef.current();
    });
    return () => {
      offDisconnect();
      offConnect();
      toast.close(DISCONNECTED_KEY);
    };
  }, [client, toast]);
}
