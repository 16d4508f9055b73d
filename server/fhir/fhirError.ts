import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';

/** An error that becomes an HTTP status and an OperationOutcome body. */
export class FhirError extends Error {
  constructor(
    readonly status: number,
    readonly outcome: OperationOutcome,
  ) {
    super(outcome.issue?.map((i) => i.details?.text ?? i.diagnostics).join('; ') ?? 'Error');
  }
}

export function outcomeOf(issues: OperationOutcomeIssue[]): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: issues };
}

function single(code: OperationOutcomeIssue['code'], text: string, expression?: string): OperationOutcome {
  return outcomeOf([
    { severity: 'error', code, details: { text }, ...(expression ? { expression: [expression] } : {}) },
  ]);
}

export const errors = {
  notFound: () => new FhirError(404, single('not-found', 'Not found')),
  /** 404 that says what was not found, for lookups by URL or code rather than by id. */
  notFoundWith: (text: string) => new FhirError(404, single('not-found', text)),
  gone: () => new FhirError(410, single('deleted', 'Deleted')),
  invalid: (text: string, expression?: string) => new FhirError(400, single('invalid', text, expression)),
  validation: (issues: OperationOutcomeIssue[]) => new FhirError(400, outcomeOf(issues)),
  preconditionFailed: (text: string) => new FhirError(412, single('conflict', text)),
  tooLarge: (text: string) => new FhirError(413, single('too-long', text)),
  /** 422: the request is well formed but would cost the server more than it allows. */
  tooCostly: (text: string, expression?: string) => new FhirError(422, single('too-costly', text, expression)),
  unsupportedMediaType: (text: string) => new FhirError(415, single('not-supported', text)),
  notSupported: (text: string, status = 400) => new FhirError(status, single('not-supported', text)),
  forbidden: (text: string) => new FhirError(403, single('forbidden', text)),
  forbiddenIssues: (issues: OperationOutcomeIssue[]) => new FhirError(403, outcomeOf(issues)),
  /** 401 with the outcome id `unauthorized`; `reason` (expired, invalid) refines the `login` code. */
  unauthorized: (text = 'Unauthorized', reason?: 'expired' | 'invalid') =>
    new FhirError(401, {
      resourceType: 'OperationOutcome',
      id: 'unauthorized',
      issue: [
        {
          severity: 'error',
          code: 'login',
          details: { ...(reason ? { coding: [{ code: reason }] } : {}), text },
        },
      ],
    }),
};

export function allOk(text = 'All OK'): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    id: 'ok',
    issue: [{ severity: 'information', code: 'informational', details: { text } }],
  };
}
