// Public surface of the signed-out pages (issue 8): sign-in, registration, password reset, /oauth.
export { signedOutRoutes, type SignedOutRoute } from './signedOutRoutes';
export { SignInPage } from './SignInPage';
export { RegisterPage } from './RegisterPage';
export { ResetPasswordPage, RESET_SENT_MESSAGE } from './ResetPasswordPage';
export { SetPasswordPage } from './SetPasswordPage';
export { OAuthPage } from './OAuthPage';
export { SignInDialog, SIGN_IN_DIALOG_WIDTH } from './SignInDialog';
export { safeNextPath } from './safeNextPath';
export { useSignIn, matchingMemberships, type SignInState, type SignInStep, type SignInFlow } from './useSignIn';
