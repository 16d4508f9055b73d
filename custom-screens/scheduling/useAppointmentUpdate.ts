import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Appointment } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { resourceQueryKey } from '../../src/resources/useResource';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { useToast } from '../../src/shell/toasts';
import { APPOINTMENT_CONFLICT_MESSAGE } from './appointmentMessages';

/** Someone changed the appointment since it was read: the If-Match failed (412), or a 409 conflict. */
export function isAppointmentConflict(error: unknown): boolean {
  return error instanceof OperationOutcomeError && (error.status === 412 || error.status === 409);
}

/** `W/"3"`: the version read, so that a change made since is refused (412), not overwritten. */
export function ifMatch(appointment: Appointment): { headers?: Record<string, string> } {
  return appointment.meta?.versionId ? { headers: { 'If-Match': `W/"${appointment.meta.versionId}"` } } : {};
}

export interface AppointmentUpdater {
  /**
   * Writes `change(appointment)` (PUT with If-Match). Resolves true when saved (toast `success`);
   * false when it failed: on a conflict the conflict message shows and the appointment is read
   * again, so the caller keeps what was typed and the user can try on the new version.
   */
  run(success: string, change: (appointment: Appointment) => Appointment): Promise<boolean>;
  pending: boolean;
}

/** The appointment actions' one write; the details, history, lists and chart tabs then read afresh. */
export function useAppointmentUpdate(appointment: Appointment): AppointmentUpdater {
  const client = useFhirClient();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [pending, setPending] = useState(false);

  const run = useCallback(
    async (success: string, change: (appointment: Appointment) => Appointment) => {
      const key = resourceQueryKey('Appointment', appointment.id as string);
      setPending(true);
      try {
        const saved = await client.updateResource(change(appointment), ifMatch(appointment));
        queryClient.setQueryData(key, saved);
        void queryClient.invalidateQueries({ queryKey: ['hearth-history', 'Appointment', appointment.id] });
        void queryClient.invalidateQueries({ queryKey: ['hearth-search', 'Appointment'] });
        toast.success(success);
        return true;
      } catch (error) {
        if (isAppointmentConflict(error)) {
          toast.error(APPOINTMENT_CONFLICT_MESSAGE);
          await queryClient.invalidateQueries({ queryKey: key });
        } else {
          toast.error(error);
        }
        return false;
      } finally {
        setPending(false);
      }
    },
    [client, queryClient, toast, appointment],
  );

  return { run, pending };
}
