// Public surface of custom-screens/visit-note. The browser copies of unsaved answers
// (answerBackupRules, useAnswerBackup, RecoveredAnswersNotice, forgetDraftsOnSignOut) are shared
// with the task fill page and the app shell; those import the modules themselves, so that neither
// pulls the visit note page into its chunk.
export { VisitNotePage } from './VisitNotePage';
