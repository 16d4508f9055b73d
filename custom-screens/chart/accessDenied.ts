import { OperationOutcomeError } from '../../data-provider/outcomes';

/**
 * Forbidden or not allowed for this user: said calmly, not as a failure. The policy's entries
 * decide most of this before anything is asked; a refusal that the entries do not foresee (SMART
 * scopes, a compartment) still reads as access, not as an error.
 */
export function isAccessDenied(error: Error): boolean {
  return (
    error instanceof OperationOutcomeError && (error.status === 403 || error.outcome.issue?.[0]?.code === 'forbidden')
  );
}
