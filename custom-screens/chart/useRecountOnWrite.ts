import { useEffect, useMemo } from 'react';
import { hashKey, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { RESOURCE_WRITE_EVENT, ResourceWriteEvent } from '../../data-provider/client';
import { useFhirClient } from '../../src/resources/useFhirClient';

/**
 * Asks `queryKeys` (each a prefix: every query it starts) again whenever this client reports a write
 * that could have changed a `resourceType`: a count shown in a part of the chart that stays mounted
 * while the tabs change is corrected at once, not at the next chart load. The client has already
 * dropped its own cached searches of the type, so the queries ask the server.
 */
export function useRecountOnWrite(resourceType: string, queryKeys: readonly QueryKey[]): void {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  // Callers build the keys as they render: compared by content, so that the same keys keep the same
  // listener rather than a new one each render.
  const keysHash = hashKey(queryKeys);
  const keys = useMemo(() => queryKeys, [keysHash]);
  useEffect(() => {
    const recount = (event: Event) => {
      if (!(event instanceof ResourceWriteEvent) || !event.touches(resourceType)) return;
      for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
    };
    // Component tests may hand in partial clients without events: those never report writes.
    client.addEventListener?.(RESOURCE_WRITE_EVENT, recount);
    return () => client.removeEventListener?.(RESOURCE_WRITE_EVENT, recount);
  }, [client, queryClient, resourceType, keys]);
}
