import type { CodeableConcept, OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import { OutcomeId } from './outcomeIds';

/** The error catalogue of data-and-client-layer-spec.md §8, plus the success outcomes of §4. */

const issueTypeSystem = 'http://hl7.org/fhir/issue-type';

function outcome(id: string | undefined, issue: OperationOutcomeIssue): OperationOutcome {
  return { resourceType: 'OperationOutcome', ...(id ? { id } : {}), issue: [issue] };
}

function information(id: OutcomeId, text: string): OperationOutcome {
  return outcome(id, { severity: 'information', code: 'informational', details: { text } });
}

function error(
  id: string | undefined,
  code: OperationOutcomeIssue['code'],
  details: CodeableConcept,
  expression?: string,
): OperationOutcome {
  return outcome(id, { severity: 'error', code, details, ...(expression ? { expression: [expression] } : {}) });
}

export function allOk(text = 'All OK'): OperationOutcome {
  return information(OutcomeId.ok, text);
}

export function created(text = 'Created'): OperationOutcome {
  return information(OutcomeId.created, text);
}

export function notModified(text = 'Not Modified'): OperationOutcome {
  return information(OutcomeId.notModified, text);
}

/** An asynchronous request was accepted; `location` is where its status can be polled. */
export function accepted(location?: string): OperationOutcome {
  return outcome(OutcomeId.accepted, {
    severity: 'information',
    code: 'informational',
    details: { text: 'Accepted' },
    ...(location ? { diagnostics: location } : {}),
  });
}

export function notFound(): OperationOutcome {
  return error(OutcomeId.notFound, 'not-found', { text: 'Not found' });
}

export function unauthorized(): OperationOutcome {
  return error(OutcomeId.unauthorized, 'login', { text: 'Unauthorized' });
}

/** "login plus expired": the issue type is login, its details coding says why. */
export function tokenExpired(): OperationOutcome {
  return error(OutcomeId.unauthorized, 'login', {
    coding: [{ system: issueTypeSystem, code: 'expired' }],
    text: 'Token expired',
  });
}

/** The access token was issued to another client than the one configured. */
export function wrongAudience(): OperationOutcome {
  return error(OutcomeId.unauthorized, 'login', {
    coding: [{ system: issueTypeSystem, code: 'invalid' }],
    text: 'token not issued for this audience',
  });
}

export function forbidden(text = 'Forbidden'): OperationOutcome {
  return error('forbidden', 'forbidden', { text });
}

/** An invalid request: `text` says what is wrong, `expression` where. */
export function badRequest(text: string, expression?: string): OperationOutcome {
  return error(undefined, 'invalid', { text }, expression);
}

/** A structurally wrong resource or document. */
export function structureError(text: string, expression?: string): OperationOutcome {
  return error(undefined, 'structure', { text }, expression);
}

/**
 * An unexpected failure. Only diagnostics are set, so the message shown is the cause itself
 * rather than a generic "internal error" that hides it.
 */
export function serverError(cause: unknown): OperationOutcome {
  const diagnostics = cause instanceof Error ? cause.message : String(cause);
  return outcome(undefined, { severity: 'error', code: 'exception', diagnostics });
}
