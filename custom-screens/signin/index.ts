export { SignInPage } from './SignInPage';
export { errorsByField, useSignIn, type SignInState, type SignInStep } from './useSignIn';
