import { OperationOutcomeError } from '../../data-provider/outcomes';

/** A patch whose version test failed: someone changed the task since it was loaded (412), or a 409 conflict. */
export function isTaskConflict(error: unknown): boolean {
  return error instanceof OperationOutcomeError && (error.status === 412 || error.status === 409);
}
