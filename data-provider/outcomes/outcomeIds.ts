/**
 * OperationOutcome ids the client layer gives a meaning to (data-and-client-layer-spec.md §4).
 * Servers put these in `OperationOutcome.id` so that a client can tell "created" from "ok"
 * without parsing issue text.
 */
export const OutcomeId = {
  ok: 'ok',
  created: 'created',
  notModified: 'not-modified',
  accepted: 'accepted',
  notFound: 'not-found',
  unauthorized: 'unauthorized',
} as const;

export type OutcomeId = (typeof OutcomeId)[keyof typeof OutcomeId];

/** Ids that count as success. */
export const SUCCESS_OUTCOME_IDS: readonly OutcomeId[] = [
  OutcomeId.ok,
  OutcomeId.created,
  OutcomeId.notModified,
  OutcomeId.accepted,
];

/** Ids that count as failure. */
export const FAILURE_OUTCOME_IDS: readonly OutcomeId[] = [OutcomeId.notFound, OutcomeId.unauthorized];
