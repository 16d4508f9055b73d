import type { FastifyInstance } from 'fastify';
import type { Reference, User } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { readReference } from './accountStore';
import { accountsProjectId, type AuthEnvironment } from './authEnvironment';
import { authBody, requiredString } from './authInput';
import { authenticate } from './authenticate';
import { requireOwnCredentials } from './ownCredentials';
import { continueLogin, pendingLogin, saveLogin } from './loginService';
import { generateTotpSecret, otpauthUrl } from './totp';
import { usedCodeMessage, useTotpCode, type TotpCheck } from './totpReplay';
import { accountThrottle, checkThrottle, clearFailures, recordFailure } from './signInThrottle';
import { systemAuthor } from '../definitions/loadDefinitions';

function refuseCode(check: TotpCheck, invalidMessage: string): void {
  if (check === 'used') throw errors.invalid(usedCodeMessage, 'token');
  if (check === 'invalid') throw errors.invalid(invalidMessage, 'token');
}

/** Two-factor sign-in with authenticator-app codes (TOTP): status, enrolment, disabling and the sign-in step. */
export async function mfaRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const tx = <T>(work: (session: RepositorySession) => Promise<T>) => env.repository.transaction(work);
  const saveUser = (session: RepositorySession, user: User) =>
    session.update({ projectId: user.meta?.project ?? accountsProjectId, author: systemAuthor }, user);

  const currentUser = async (session: RepositorySession, reference: Reference | undefined): Promise<User> => {
    const user = await readReference<User>(session, reference);
    if (!user || user.resourceType !== 'User') throw errors.forbidden('Only users can use two-factor sign-in');
    return user;
  };

  app.get('/auth/mfa/status', async (request) => {
    const caller = await authenticate(env, request);
    requireOwnCredentials(caller);
    return tx(async (session) => {
      const user = await currentUser(session, caller.login.user);
      if (user.mfaEnrolled) return { enrolled: true };
      let secret = user.mfaSecret;
      if (!secret) {
        secret = generateTotpSecret();
        await saveUser(session, { ...user, mfaSecret: secret });
      }
      // The secret is shown only to its owner, only until enrolment, as the QR code's URL.
      return { enrolled: false, enrollUri: otpauthUrl(secret, user.email as string, 'Hearth EMR') };
    });
  });

  app.post('/auth/mfa/enroll', async (request) => {
    const caller = await authenticate(env, request);
    requireOwnCredentials(caller);
    const token = requiredString(authBody(request.body), 'token', 'Code');
    return tx(async (session) => {
      const user = await currentUser(session, caller.login.user);
      if (user.mfaEnrolled) throw errors.invalid('Two-factor sign-in is already enabled', 'token');
      if (!user.mfaSecret) throw errors.invalid('Open the enrolment first (GET /auth/mfa/status)', 'token');
      refuseCode(await useTotpCode(session.tx, user.id as string, user.mfaSecret, token.trim()), 'Invalid code');
      await saveUser(session, { ...user, mfaEnrolled: true });
      return { enrolled: true };
    });
  });

  app.post('/auth/mfa/disable', async (request) => {
    const caller = await authenticate(env, request);
    requireOwnCredentials(caller);
    const token = requiredString(authBody(request.body), 'token', 'Code');
    return tx(async (session) => {
      const user = await currentUser(session, caller.login.user);
      if (!user.mfaEnrolled || !user.mfaSecret) throw errors.invalid('Two-factor sign-in is not enabled', 'token');
      refuseCode(await useTotpCode(session.tx, user.id as string, user.mfaSecret, token.trim()), 'Invalid code');
      await saveUser(session, { ...user, mfaEnrolled: false, mfaSecret: undefined });
      return { enrolled: false };
    });
  });

  app.post('/auth/mfa/verify', async (request) => {
    const body = authBody(request.body);
    const token = requiredString(body, 'token', 'MFA code');
    const { login, user } = await tx(async (session) => {
      const pending = await pendingLogin(session, body.login, { mfa: 'may be pending' });
      return { login: pending, user: await currentUser(session, pending.user) };
    });
    const keys = [[`mfa:${user.id}`, accountThrottle]] as [string, typeof accountThrottle][];
    await checkThrottle(env.repository.db, keys);
    if (!user.mfaEnrolled || !user.mfaSecret) throw errors.invalid('Two-factor sign-in is not enabled', 'token');
    const check = await useTotpCode(env.repository.db, user.id as string, user.mfaSecret, token.trim());
    if (check !== 'accepted') {
      // A replayed code counts as a failed try: someone other than the owner may be typing it.
      await recordFailure(env.repository.db, keys);
      refuseCode(check, 'Invalid MFA code');
    }
    await clearFailures(env.repository.db, `mfa:${user.id}`);
    return tx(async (session) => {
      const verified = await saveLogin(session, { ...login, mfaVerified: true });
      return continueLogin(session, verified, user);
    });
  });
}
