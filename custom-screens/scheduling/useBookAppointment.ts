import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Appointment } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';

/** Creates the Appointment; the appointment lists and the chart's tab then read afresh. */
export function useBookAppointment() {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  return useMutation<Appointment, Error, Appointment>({
    mutationFn: (appointment) => client.createResource(appointment),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['hearth-search', 'Appointment'] }),
  });
}
