import { OperationOutcomeError } from '../../data-provider/outcomes';

/**
 * A failed sign-in call sorted for display (app-spec §8): messages naming a field go under it, other
 * issues of an OperationOutcome are listed in the form, and anything else (no connection, a crash)
 * becomes a toast.
 */
export interface SignInErrors {
  fields: Record<string, string>;
  issues: string[];
  toast?: string;
}

export function sortSignInError(error: unknown): SignInErrors {
  if (!(error instanceof OperationOutcomeError)) {
    return { fields: {}, issues: [], toast: error instanceof Error ? error.message : String(error) };
  }
  const fields: Record<string, string> = {};
  const issues: string[] = [];
  for (const issue of error.outcome.issue ?? []) {
    const text = issue.details?.text ?? issue.diagnostics ?? 'Unknown error';
    const field = issue.expression?.[0];
    if (field && !fields[field]) fields[field] = text;
    else issues.push(text);
  }
  return { fields, issues };
}

/** A refusal made in the browser, shaped like the server's so both display the same way. */
export function fieldError(field: string, text: string): OperationOutcomeError {
  return new OperationOutcomeError(
    {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', details: { text }, expression: [field] }],
    },
    400,
  );
}

/** A refusal that names no field: listed in the form like the server's general issues. */
export function issueError(text: string): OperationOutcomeError {
  return new OperationOutcomeError(
    { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid', details: { text } }] },
    400,
  );
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Required-field rules of app-spec §5: Email (of email type), Password, MFA code, Project Name. */
export function requireEmail(email: string): string {
  const trimmed = email.trim();
  if (!trimmed) throw fieldError('email', 'Email is required');
  if (!EMAIL_PATTERN.test(trimmed)) throw fieldError('email', 'Invalid email address');
  return trimmed;
}

export function requireValue(field: string, value: string, label: string): string {
  if (!value.trim()) throw fieldError(field, `${label} is required`);
  return value;
}
