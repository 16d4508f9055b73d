import { describe, expect, it } from 'vitest';
import { isSignedOutPath, signInRedirectPath } from './signedOutPaths';

describe('signed-out paths', () => {
  it('knows the pages shown outside the shell', () => {
    for (const path of ['/signin', '/register', '/resetpassword', '/setpassword/abc/def', '/oauth']) {
      expect(isSignedOutPath(path)).toBe(true);
    }
    for (const path of ['/', '/Patient', '/signinx', '/security', '/Patient/signin']) {
      expect(isSignedOutPath(path)).toBe(false);
    }
  });

  it('sends other paths to /signin with the page asked for in next', () => {
    expect(signInRedirectPath('/Patient/1?x=y')).toBe('/signin?next=%2FPatient%2F1%3Fx%3Dy');
    expect(signInRedirectPath('/')).toBe('/signin');
    expect(signInRedirectPath('/signin?next=%2FTask')).toBe('/signin');
  });
});
