import { useEffect, useState } from 'react';
import type { ResourceType } from '@medplum/fhirtypes';
import { RESOURCE_WRITE_EVENT, ResourceWriteEvent } from '../../data-provider/client';
import { useShellClient } from './shellClient';
import { isCriteriaBound, subscriptionManagerFor } from './realtime';
import { canWatchLive } from './realtimeAccess';

export interface LiveCount {
  /** Undefined while loading or when the count cannot be read. */
  count: number | undefined;
  /** The realtime subscription is bound: changes will update the count. */
  live: boolean;
}

/**
 * How many resources match a search (`_summary=count`), counted again whenever the server notifies
 * a change matching the same criteria over the realtime socket (app-spec §7 'Counts'), and once
 * more when the subscription is bound, so a change made while it was being set up is not missed.
 * A write of the type by this tab (a task completed in the chart) counts again at once: the socket
 * may be unbound, not allowed by the policy, or slow, and the user has just seen the change.
 */
export function useLiveCount(resourceType: ResourceType, query: string | undefined): LiveCount {
  const client = useShellClient();
  const [count, setCount] = useState<number | undefined>(undefined);
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!query) return;
    let active = true;
    // Counts overlap (a write, then the socket's notification of it): only the latest one is shown.
    let latest = 0;
    const criteria = `${resourceType}?${query}`;
    const load = () => {
      const params = new URLSearchParams(query);
      params.set('_summary', 'count');
      const request = ++latest;
      const current = () => active && request === latest;
      client
        .search(resourceType, params.toString(), { cache: 'no-store' })
        .then((bundle) => current() && setCount(bundle.total))
        .catch(() => current() && setCount(undefined));
    };
    load();
    const recount = (event: Event) => {
      if (event instanceof ResourceWriteEvent && event.touches(resourceType)) load();
    };
    client.addEventListener(RESOURCE_WRITE_EVENT, recount);
    const stopRecounting = () => client.removeEventListener(RESOURCE_WRITE_EVENT, recount);
    // Subscribe only where the policy lets the server accept it (no 403 on every page load).
    const watch = canWatchLive(client.getAccessPolicy(), client.isSuperAdmin(), resourceType);
    const manager = watch ? subscriptionManagerFor(client) : undefined;
    if (!manager) {
      return () => {
        active = false;
        stopRecounting();
      };
    }
    setLive(isCriteriaBound(manager, criteria));
    const stopListening = manager.addListener(criteria, load);
    const offBound = manager.on('bound', (event) => {
      if (event.criteria !== criteria) return;
      setLive(true);
      load();
    });
    const offDisconnect = manager.on('disconnect', () => setLive(false));
    return () => {
      active = false;
      stopRecounting();
      stopListening();
      offBound();
      offDisconnect();
    };
  }, [client, resourceType, query]);
  return { count, live };
}
