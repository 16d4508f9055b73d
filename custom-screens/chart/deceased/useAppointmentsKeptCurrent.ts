import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { RESOURCE_WRITE_EVENT, ResourceWriteEvent } from '../../../data-provider/client';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { summaryQueryKey } from '../summary/summaryQueries';
import { appointmentsLeftOpenKey } from './useAppointmentsLeftOpen';

/**
 * An appointment written through this client — cancelled from the notice, or edited in the
 * Appointments tab — is counted again at once: the notice, the header's upcoming appointments and
 * the Appointments tab's list (its key starts like the console's searches). The client has already
 * dropped its own cached searches of the type, so these ask the server.
 */
export function useAppointmentsKeptCurrent(patientId: string): void {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  useEffect(() => {
    const recount = (event: Event) => {
      if (!(event instanceof ResourceWriteEvent) || !event.touches('Appointment')) return;
      void queryClient.invalidateQueries({ queryKey: appointmentsLeftOpenKey(patientId) });
      void queryClient.invalidateQueries({ queryKey: summaryQueryKey(patientId, 'appointments') });
      void queryClient.invalidateQueries({ queryKey: ['hearth-search', 'Appointment'] });
    };
    // Component tests may hand in partial clients without events: those never report writes.
    client.addEventListener?.(RESOURCE_WRITE_EVENT, recount);
    return () => client.removeEventListener?.(RESOURCE_WRITE_EVENT, recount);
  }, [client, queryClient, patientId]);
}
