// Public surface of the SDC questionnaire renderer: a pure answer model and a thin React form on it.
export type { AnswerValue, FormState } from './formState';
export { initialFormState, formStateFromResponse } from './initialState';
export { computeEnablement } from './enablement';
export { buildResponse, questionnaireCanonical, type ResponseContext } from './buildResponse';
export { itemErrors } from './itemValidation';
export { validateResponse, type ResponseIssue } from './validateResponse';
export { evaluateExpressions, settleExpressions, hasExpressions, type LaunchContext } from './expressionEvaluation';
export { isPaged } from './paging';
export { QuestionnaireForm, type QuestionnaireFormProps } from './QuestionnaireForm';
export { QuestionnairePreview } from './QuestionnairePreview';
export { answerText, answeredQuestions, type AnsweredQuestion } from './responseAnswers';
export { QuestionnaireResponseView } from './QuestionnaireResponseView';
