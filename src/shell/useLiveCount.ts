import { useEffect, useState } from 'react';
import type { ResourceType } from '@medplum/fhirtypes';
import { useShellClient } from './shellClient';
import { subscriptionManagerFor } from './realtime';

/**
 * How many resources match a search (`_summary=count`), counted again whenever the server notifies
 * a change matching the same criteria over the realtime socket (app-spec §7 'Counts'). Undefined
 * while loading or when the count cannot be read.
 */
export function useLiveCount(resourceType: ResourceType, query: string | undefined): number | undefined {
  const client = useShellClient();
  const [count, setCount] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!query) return;
    let active = true;
    const load = () => {
      const params = new URLSearchParams(query);
      params.set('_summary', 'count');
      client
        .search(resourceType, params.toString(), { cache: 'no-store' })
        .then((bundle) => active && setCount(bundle.total))
        .catch(() => active && setCount(undefined));
    };
    load();
    const manager = subscriptionManagerFor(client);
    const stop = manager?.addListener(`${resourceType}?${query}`, load);
    return () => {
      active = false;
      stop?.();
    };
  }, [client, resourceType, query]);
  return count;
}
