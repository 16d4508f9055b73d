import type { OperationOutcome } from '@medplum/fhirtypes';
import { OutcomeId, SUCCESS_OUTCOME_IDS } from './outcomeIds';

export function isOperationOutcome(value: unknown): value is OperationOutcome {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { resourceType?: unknown }).resourceType === 'OperationOutcome'
  );
}

function firstIssueCode(outcome: OperationOutcome): string | undefined {
  return outcome.issue?.[0]?.code;
}

export function isOk(outcome: OperationOutcome): boolean {
  return outcome.id === OutcomeId.ok;
}

export function isCreated(outcome: OperationOutcome): boolean {
  return outcome.id === OutcomeId.created;
}

export function isNotModified(outcome: OperationOutcome): boolean {
  return outcome.id === OutcomeId.notModified;
}

export function isAccepted(outcome: OperationOutcome): boolean {
  return outcome.id === OutcomeId.accepted;
}

/** ok, created, not-modified or accepted. */
export function isSuccessOutcome(outcome: OperationOutcome): boolean {
  return (SUCCESS_OUTCOME_IDS as readonly (string | undefined)[]).includes(outcome.id);
}

/** By id, or by issue code for servers (ours included) that do not set the id on errors. */
export function isNotFound(outcome: OperationOutcome): boolean {
  return outcome.id === OutcomeId.notFound || firstIssueCode(outcome) === 'not-found';
}

export function isUnauthorized(outcome: OperationOutcome): boolean {
  return outcome.id === OutcomeId.unauthorized || firstIssueCode(outcome) === 'login';
}

const statusByIssueCode: Record<string, number> = {
  invalid: 400,
  structure: 400,
  required: 400,
  value: 400,
  invariant: 400,
  login: 401,
  unknown: 401,
  security: 403,
  forbidden: 403,
  suppressed: 403,
  'not-found': 404,
  deleted: 410,
  conflict: 409,
  duplicate: 409,
  'too-long': 413,
  'not-supported': 400,
  'business-rule': 422,
  processing: 422,
  throttled: 429,
  'too-costly': 429,
  timeout: 504,
  transient: 503,
  exception: 500,
};

/** The HTTP status an outcome stands for: from its id when it has one of ours, else from its first issue. */
export function statusOfOutcome(outcome: OperationOutcome): number {
  switch (outcome.id) {
    case OutcomeId.ok:
      return 200;
    case OutcomeId.created:
      return 201;
    case OutcomeId.accepted:
      return 202;
    case OutcomeId.notModified:
      return 304;
    case OutcomeId.notFound:
      return 404;
    case OutcomeId.unauthorized:
      return 401;
  }
  const issue = outcome.issue?.[0];
  if (!issue) return 500;
  if (issue.severity === 'information' || issue.severity === 'warning') return 200;
  return statusByIssueCode[issue.code] ?? 400;
}
