import { isSignedOutPath } from '../../src/shell/signedOutPaths';

/**
 * Where to go after signing in: the `next` path when it is a path of this app, else `/`. Anything
 * that could leave the site (`//host`, `/\host`, `https:`) or loop back into the signed-out pages is
 * refused, so a crafted sign-in link cannot send the user elsewhere.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  // Browsers drop tabs and line breaks inside URLs, which would turn `/\t/host` into `//host`.
  if ([...next].some((c) => c.charCodeAt(0) < 0x20)) return '/';
  const pathname = next.split(/[?#]/)[0] ?? '';
  if (isSignedOutPath(pathname)) return '/';
  return next;
}
