import { errors } from '../fhir/fhirError';
import type { Caller } from './callerResolver';

/**
 * Did this session's person prove the account's own credentials (password, Google, or an identity
 * provider a super admin configured for the e-mail domain)? A token exchange is vouched for by an
 * identity provider that one project's admin configured on a ClientApplication, and a client acts as
 * itself: such sessions work in their project but may not change the account's security (two-factor
 * sign-in, password, other sessions), which spans every project the person belongs to.
 */
export function hasOwnCredentials(caller: Caller): boolean {
  return caller.login.authMethod !== 'exchange' && caller.login.authMethod !== 'client';
}

export function requireOwnCredentials(caller: Caller): void {
  if (!hasOwnCredentials(caller)) {
    throw errors.forbidden("Sign in with the account's own credentials to change its security settings");
  }
}
