import type { Login, User } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { readReference } from './accountStore';

/**
 * Is this login still waiting for its TOTP code? Every sign-in of a user with two-factor sign-in
 * enrolled (password, Google, an external provider) must pass `auth/mfa/verify` before any later
 * step: listing memberships, choosing a profile or scopes, creating a project, getting or
 * redeeming a code. Token exchange is the one exception: the client's identity provider vouched
 * for the person, and no one is there to type a code.
 */
export async function mfaPending(session: RepositorySession, login: Login): Promise<boolean> {
  if (login.mfaVerified || login.authMethod === 'exchange' || login.authMethod === 'client') return false;
  const user = await readReference<User>(session, login.user);
  return user?.resourceType === 'User' && user.mfaEnrolled === true;
}

export const mfaPendingMessage = 'Two-factor sign-in is not complete: enter the code from your authenticator app first';

export async function requireMfaDone(session: RepositorySession, login: Login): Promise<void> {
  if (await mfaPending(session, login)) throw errors.forbidden(mfaPendingMessage);
}
