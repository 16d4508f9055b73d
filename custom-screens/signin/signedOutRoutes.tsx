import type { ReactElement } from 'react';
import { hearthClient } from '../../src/hearthClient';
import { OAuthPage } from './OAuthPage';
import { RegisterPage } from './RegisterPage';
import { ResetPasswordPage } from './ResetPasswordPage';
import { SetPasswordPage } from './SetPasswordPage';
import { SignInPage } from './SignInPage';

export interface SignedOutRoute {
  path: string;
  element: ReactElement;
}

/** The pages shown outside the shell (app-spec §2.1), for the router of src/App.tsx. */
export const signedOutRoutes: SignedOutRoute[] = [
  { path: '/signin', element: <SignInPage client={hearthClient} /> },
  { path: '/register', element: <RegisterPage client={hearthClient} /> },
  { path: '/resetpassword', element: <ResetPasswordPage client={hearthClient} /> },
  { path: '/setpassword/:id/:secret', element: <SetPasswordPage client={hearthClient} /> },
  { path: '/oauth', element: <OAuthPage client={hearthClient} /> },
];
