import type { Appointment } from '@medplum/fhirtypes';
import {
  normalizeOperationOutcome,
  OperationOutcomeError,
  operationOutcomeToString,
} from '../../../data-provider/outcomes';
import { OPEN_APPOINTMENT_STATUSES } from './appointmentsLeftOpen';

/** Why an appointment was not cancelled: in words, and the server's own (its OperationOutcome's text). */
export interface CancelFailure {
  message: string;
  /** The server's text, when the message is not already it. */
  detail?: string;
}

/**
 * Why an appointment was not cancelled, in the server's words. A version conflict (412: someone
 * changed it since the list was read) says so plainly and what trying again does — the retry
 * cancels the appointment as it is now, not the copy that was listed — with the server's text
 * (version ids) below it.
 */
export function cancelFailure(error: unknown): CancelFailure {
  const text = operationOutcomeToString(normalizeOperationOutcome(error));
  if (error instanceof OperationOutcomeError && error.status === 412) {
    return {
      message: 'Changed by someone else since this list was loaded. Try again to cancel it as it is now.',
      detail: text,
    };
  }
  return { message: text };
}

const open: ReadonlySet<string> = new Set(OPEN_APPOINTMENT_STATUSES);

/**
 * Why a retry left an appointment alone: read again, it is no longer left open after the death —
 * someone closed it, or moved it to before the death (then it is not this notice's to cancel).
 */
export function leftAsItIsMessage(current: Appointment): string {
  if (current.status === 'cancelled') return 'Already cancelled by someone else: left as it is.';
  if (open.has(current.status)) return 'Now starts before the death: left as it is.';
  return `Now ${current.status}: left as it is.`;
}
