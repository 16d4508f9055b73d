import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Appointment } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { findClashes, type AppointmentClash } from './appointmentClashes';
import type { BookingSlot } from './bookingSlot';
import { clashSearch, includedNames } from './clashSearch';

export interface ClashCheck {
  clashes: AppointmentClash[];
  /** Names of the participants the searches brought along. */
  names: Map<string, string>;
}

/**
 * Looks up, just before a save, the clinician's and the patient's appointments that hold part of
 * the slot. Always asked afresh: another desk may have booked the slot a minute ago.
 */
export function useClashCheck(): (
  slot: BookingSlot,
  who: { clinician: string; patient: string },
) => Promise<ClashCheck> {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  return useCallback(
    (slot, who) =>
      queryClient.fetchQuery<ClashCheck>({
        queryKey: ['hearth-appointment-clashes', who.clinician, who.patient, slot.start.getTime(), slot.end.getTime()],
        staleTime: 0,
        queryFn: async ({ signal }) => {
          const options = { signal, cache: 'no-cache' as const };
          const [clinician, patient] = await Promise.all([
            client.searchResources('Appointment', clashSearch(who.clinician, slot), options),
            client.searchResources('Appointment', clashSearch(who.patient, slot), options),
          ]);
          const candidates: Appointment[] = [...clinician, ...patient];
          return {
            clashes: findClashes(slot, candidates, who),
            names: new Map([...includedNames(clinician.bundle), ...includedNames(patient.bundle)]),
          };
        },
      }),
    [client, queryClient],
  );
}
