// The folder's surface without React: the answer model and its rules, for code that runs where no
// React renders (node-run unit tests of task rules). index.ts re-exports it with the form.
export type { AnswerValue, FormState } from './formState';
export { initialFormState, formStateFromResponse } from './initialState';
export { computeEnablement } from './enablement';
export { buildResponse, questionnaireCanonical, type ResponseContext } from './buildResponse';
export { itemErrors } from './itemValidation';
export { validateResponse, type ResponseIssue } from './validateResponse';
export { evaluateExpressions, settleExpressions, hasExpressions, type LaunchContext } from './expressionEvaluation';
export { isPaged } from './paging';
export { answerText, answeredQuestions, type AnsweredQuestion } from './responseAnswers';
export { EXT, expressionOf } from './questionnaireExtensions';
