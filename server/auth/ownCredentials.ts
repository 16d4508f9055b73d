import { errors } from '../fhir/fhirError';
import type { Caller } from './callerResolver';

/**
 * Is this a Hearth EMR session of a person who proved the account's own credentials (password,
 * Google, or an identity provider a super admin configured for the e-mail domain)? The account's
 * security (two-factor sign-in, password, other sessions) spans every project the person belongs
 * to, so only such a session may see or change it:
 * - a token exchange is vouched for by an identity provider that one project's admin configured on
 *   a ClientApplication, and a client signing in as itself is no person;
 * - a token issued to a third-party app (any login with a ClientApplication, e.g. a SMART app
 *   signed in with the person's password) serves that app in its project: an app registered by a
 *   project admin must not read the account's sessions or enrol a second factor only it knows.
 */
export function hasOwnCredentials(caller: Caller): boolean {
  const { login } = caller;
  return !login.client && login.authMethod !== 'exchange' && login.authMethod !== 'client';
}

export function requireOwnCredentials(caller: Caller): void {
  if (!hasOwnCredentials(caller)) {
    throw errors.forbidden("Sign in with the account's own credentials to change its security settings");
  }
}
