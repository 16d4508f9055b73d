// Public surface of the SDC questionnaire renderer: a pure answer model (model.ts, usable without
// React) and a thin React form on it.
export * from './model';
export { QuestionnaireForm, type QuestionnaireFormProps } from './QuestionnaireForm';
export { QuestionnairePreview } from './QuestionnairePreview';
export { QuestionnaireResponseView } from './QuestionnaireResponseView';
export { useResponseQuestionnaire } from './useResponseQuestionnaire';
