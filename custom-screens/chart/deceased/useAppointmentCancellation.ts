import { useCallback, useState } from 'react';
import type { Appointment } from '@medplum/fhirtypes';
import type { VitalStatus } from '../../../data-provider/rules';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { isLeftOpenAfterDeath } from './appointmentsLeftOpen';
import { cancelFailure, leftAsItIsMessage, type CancelFailure } from './cancelOutcomeMessages';
import { cancelledForDeath } from './cancelledForDeath';

/** Where one listed appointment stands in the dialog. */
export type CancellationState =
  | { kind: 'waiting' }
  | { kind: 'working' }
  | { kind: 'cancelled' }
  /** The server refused, and why (its OperationOutcome's text). Trying again re-reads it first. */
  | ({ kind: 'failed' } & CancelFailure)
  /** Read again for a retry, it no longer waits for the patient: nothing was written. */
  | { kind: 'leftAsItIs'; message: string };

export interface CancellationRow {
  /** As listed — or as read again for a retry, so that the row shows what will be cancelled. */
  appointment: Appointment;
  state: CancellationState;
}

/** Where the listed appointments stand, in all the tries so far. */
export interface CancellationTally {
  cancelled: number;
  leftAsItIs: number;
  /** Never tried, or failed: what a further try would take. */
  pending: number;
}

export interface AppointmentCancellation {
  rows: CancellationRow[];
  running: boolean;
  /** Rows still to try: never tried, or failed (a retry takes only these; the cancelled stay done). */
  pending: number;
  /** Cancels every pending row in parallel; resolves with where all the rows stand now. */
  run(): Promise<CancellationTally>;
}

const isPending = (row: CancellationRow) => row.state.kind === 'waiting' || row.state.kind === 'failed';

/** `W/"3"`: the version the appointment was read at, so that a change made since is refused (412), not overwritten. */
const ifMatch = (appointment: Appointment) =>
  appointment.meta?.versionId ? { headers: { 'If-Match': `W/"${appointment.meta.versionId}"` } } : {};

/**
 * Cancelling a deceased patient's listed appointments, each on its own: one that fails keeps its
 * server's reason and the others stay done. A retry first reads a failed one again — after a
 * version conflict the listed copy can never be written — and cancels it as it is now, keeping
 * the other person's change, unless it no longer waits for the patient.
 */
export function useAppointmentCancellation(
  listed: readonly Appointment[],
  patient: VitalStatus,
): AppointmentCancellation {
  const client = useFhirClient();
  const [rows, setRows] = useState<CancellationRow[]>(() =>
    listed.map((appointment) => ({ appointment, state: { kind: 'waiting' } })),
  );
  const [running, setRunning] = useState(false);

  const cancelOne = useCallback(
    async (row: CancellationRow): Promise<CancellationRow> => {
      let appointment = row.appointment;
      try {
        if (row.state.kind === 'failed') {
          appointment = await client.readResource('Appointment', appointment.id ?? '', { cache: 'reload' });
          if (!isLeftOpenAfterDeath(appointment, patient, new Date())) {
            return { appointment, state: { kind: 'leftAsItIs', message: leftAsItIsMessage(appointment) } };
          }
        }
        await client.updateResource(cancelledForDeath(appointment), ifMatch(appointment));
        return { appointment, state: { kind: 'cancelled' } };
      } catch (error) {
        return { appointment, state: { kind: 'failed', ...cancelFailure(error) } };
      }
    },
    [client, patient],
  );

  const run = useCallback(async () => {
    setRunning(true);
    setRows((current) => current.map((row) => (isPending(row) ? { ...row, state: { kind: 'working' } } : row)));
    // Each pending row tried once, in parallel; the others (cancelled, left as they are) kept as they stand.
    const next = await Promise.all(rows.map((row) => (isPending(row) ? cancelOne(row) : row)));
    setRows(next);
    setRunning(false);
    return {
      cancelled: next.filter((row) => row.state.kind === 'cancelled').length,
      leftAsItIs: next.filter((row) => row.state.kind === 'leftAsItIs').length,
      pending: next.filter(isPending).length,
    };
  }, [rows, cancelOne]);

  return { rows, running, pending: rows.filter(isPending).length, run };
}
