import type { AuthProvider } from 'react-admin';
import { signInRedirectPath } from './signedOutPaths';

/**
 * react-admin's auth provider with the app's sign-in address: a page that finds no login sends the
 * visitor to /signin, remembering the page in `next`.
 */
export function withSignInRedirect(base: AuthProvider, hasLogin: () => boolean): AuthProvider {
  return {
    ...base,
    async checkAuth(params) {
      if (!hasLogin()) {
        const here = `${window.location.pathname}${window.location.search}`;
        throw { redirectTo: signInRedirectPath(here), logoutUser: false, message: false };
      }
      return base.checkAuth(params);
    },
  };
}
