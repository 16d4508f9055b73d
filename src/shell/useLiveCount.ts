import { useEffect, useState } from 'react';
import type { ResourceType } from '@medplum/fhirtypes';
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
 */
export function useLiveCount(resourceType: ResourceType, query: string | undefined): LiveCount {
  const client = useShellClient();
  const [count, setCount] = useState<number | undefined>(undefined);
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!query) return;
    let active = true;
    const criteria = `${resourceType}?${query}`;
    const load = () => {
      const params = new URLSearchParams(query);
      params.set('_summary', 'count');
      client
        .search(resourceType, params.toString(), { cache: 'no-store' })
        .then((bundle) => active && setCount(bundle.total))
        .catch(() => active && setCount(undefined));
    };
    load();
    // Subscribe only where the policy lets the server accept it (no 403 on every page load).
    const watch = canWatchLive(client.getAccessPolicy(), client.isSuperAdmin(), resourceType);
    const manager = watch ? subscriptionManagerFor(client) : undefined;
    if (!manager) return () => void (active = false);
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
      stopListening();
      offBound();
      offDisconnect();
    };
  }, [client, resourceType, query]);
  return { count, live };
}
