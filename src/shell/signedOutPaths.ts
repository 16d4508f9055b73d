/** Paths shown to signed-out visitors, outside the shell (app-spec §2.1, issue 8). */
export const SIGN_IN_PATH = '/signin';
const SIGNED_OUT_PATHS = ['/signin', '/register', '/resetpassword', '/setpassword', '/oauth'];

export function isSignedOutPath(pathname: string): boolean {
  return SIGNED_OUT_PATHS.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

/**
 * Where a signed-out visitor of `path` (pathname plus search) is sent: the sign-in screen, with the
 * page first asked for in `next` so the sign-in can return there. The home page needs no `next`.
 */
export function signInRedirectPath(path: string): string {
  if (!path || path === '/' || isSignedOutPath(path.split('?')[0] ?? '')) return SIGN_IN_PATH;
  return `${SIGN_IN_PATH}?next=${encodeURIComponent(path)}`;
}
