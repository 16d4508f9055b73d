// Account settings (issue 8): password, two-factor sign-in, sessions. Lazy-loaded by src/App.tsx.
export { default as AccountSettingsPage } from './AccountSettingsPage';
export { accountApi, currentSessionId, type ActiveSession, type MfaStatus, type SecurityDetails } from './accountApi';
export { fieldErrors } from './fieldErrors';
