import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RESOURCE_WRITE_EVENT, ResourceWriteEvent } from '../../../data-provider/client';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { summaryQueryKey } from './summaryQueries';

/**
 * The sidebar stays mounted while the chart's tabs change: a task completed or added in the Tasks tab
 * (or anywhere through this client) counts again in the header at once, not at the next chart load.
 */
export function useOpenTasksKeptCurrent(patientId: string): void {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    const recount = (event: Event) => {
      if (!(event instanceof ResourceWriteEvent) || !event.touches('Task')) return;
      void queryClient.invalidateQueries({ queryKey: summaryQueryKey(patientId, 'openTasks') });
    };
    // Component tests may hand in partial clients without events: those never report writes.
    client.addEventListener?.(RESOURCE_WRITE_EVENT, recount);
    return () => client.removeEventListener?.(RESOURCE_WRITE_EVENT, recount);
  }, [client, queryClient, patientId]);
}
