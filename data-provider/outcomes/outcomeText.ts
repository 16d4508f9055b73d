import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import { serverError } from './outcomeCatalogue';
import { isOperationOutcome } from './outcomePredicates';

const unknownError = 'Unknown error';

/** "text (path, path)": the human text of one issue, followed by where it applies. */
export function operationOutcomeIssueToString(issue: OperationOutcomeIssue): string {
  const text = issue.details?.text ?? issue.diagnostics ?? unknownError;
  const where = issue.expression?.filter((path) => path.length > 0) ?? [];
  return where.length > 0 ? `${text} (${where.join(', ')})` : text;
}

/** All issues joined with '; ' (data-and-client-layer-spec.md §8); 'Unknown error' when there are none. */
export function operationOutcomeToString(outcome: OperationOutcome): string {
  const issues = outcome.issue ?? [];
  return issues.length > 0 ? issues.map(operationOutcomeIssueToString).join('; ') : unknownError;
}

/**
 * A message for anything that was thrown or answered: an Error, an OperationOutcome, an OAuth
 * error body, a string. Used wherever an error reaches a person.
 */
export function normalizeErrorString(error: unknown): string {
  if (error === undefined || error === null) return unknownError;
  if (typeof error === 'string') return error.length > 0 ? error : unknownError;
  if (isOperationOutcome(error)) return operationOutcomeToString(error);
  if (error instanceof Error) return error.message || unknownError;
  if (typeof error === 'object') {
    const fields = error as Record<string, unknown>;
    // OAuth2 error bodies (`error`, `error_description`) and plain `{ message }` objects.
    for (const key of ['error_description', 'message', 'error']) {
      if (typeof fields[key] === 'string' && fields[key]) return fields[key];
    }
    return JSON.stringify(error);
  }
  return String(error);
}

/** Any thrown value as an OperationOutcome, keeping one that is already there. */
export function normalizeOperationOutcome(error: unknown): OperationOutcome {
  if (isOperationOutcome(error)) return error;
  if (typeof error === 'object' && error !== null && isOperationOutcome((error as { outcome?: unknown }).outcome)) {
    return (error as { outcome: OperationOutcome }).outcome;
  }
  return serverError(normalizeErrorString(error));
}
