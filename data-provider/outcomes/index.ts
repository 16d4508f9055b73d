// Public surface of OperationOutcome handling (data-and-client-layer-spec.md §4, §8).
export { OutcomeId, SUCCESS_OUTCOME_IDS, FAILURE_OUTCOME_IDS } from './outcomeIds';
export {
  accepted,
  allOk,
  badRequest,
  created,
  forbidden,
  notFound,
  notModified,
  serverError,
  structureError,
  tokenExpired,
  unauthorized,
  wrongAudience,
} from './outcomeCatalogue';
export {
  isAccepted,
  isCreated,
  isNotFound,
  isNotModified,
  isOk,
  isOperationOutcome,
  isSuccessOutcome,
  isUnauthorized,
  statusOfOutcome,
} from './outcomePredicates';
export {
  normalizeErrorString,
  normalizeOperationOutcome,
  operationOutcomeIssueToString,
  operationOutcomeToString,
} from './outcomeText';
export { OperationOutcomeError } from './operationOutcomeError';
