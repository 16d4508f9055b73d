import type { OperationOutcome } from '@medplum/fhirtypes';
import { statusOfOutcome } from './outcomePredicates';
import { operationOutcomeToString } from './outcomeText';

/**
 * An error that carries the server's OperationOutcome and the HTTP status, so that callers can
 * show every issue (not only the first) and branch on the status.
 */
export class OperationOutcomeError extends Error {
  readonly outcome: OperationOutcome;
  readonly status: number;

  constructor(outcome: OperationOutcome, status?: number, options?: { cause?: unknown }) {
    super(operationOutcomeToString(outcome), options);
    this.name = 'OperationOutcomeError';
    this.outcome = outcome;
    this.status = status ?? statusOfOutcome(outcome);
  }
}
