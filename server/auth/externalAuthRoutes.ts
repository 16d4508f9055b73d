import type { FastifyInstance } from 'fastify';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { User } from '@medplum/fhirtypes';
import { errors, FhirError } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { findUserByEmail, findUserByExternalId, readClient } from './accountStore';
import type { AuthEnvironment } from './authEnvironment';
import { authBody, optionalString, pkceParameters, requiredString } from './authInput';
import { fetchExternalIdentity, takePendingSignIn } from './externalIdentity';
import { continueLogin, createLogin } from './loginService';
import { addressVerified, confirmAddressOwner } from './addressOwnership';

/** The callback of external OIDC sign-in and Google sign-in. */
export async function externalAuthRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const tx = <T>(work: (session: RepositorySession) => Promise<T>) => env.repository.transaction(work);

  app.get<{ Querystring: { code?: string; state?: string; error?: string; error_description?: string } }>(
    '/auth/external',
    async (request, reply) => {
      const { code, state } = request.query;
      if (!state) throw errors.invalid('Missing state', 'state');
      const pending = await takePendingSignIn(env, state);
      if (!pending) throw errors.invalid('Unknown or expired state: start the sign-in again', 'state');
      const back = new URL(pending.redirectUri ?? `${env.config.baseUrl}signin`);
      const fail = (message: string) => {
        back.searchParams.set('error', message);
        return reply.redirect(back.toString());
      };
      if (request.query.error) return fail(request.query.error_description ?? request.query.error);
      if (!code) return fail('The identity provider sent no code');
      let identity;
      try {
        identity = await fetchExternalIdentity(env, pending, code);
      } catch (error) {
        return fail((error as Error).message);
      }
      const byEmail = !pending.identityProvider.useSubject;
      if (byEmail && identity.email) {
        // Linking to an account by its e-mail trusts the provider for that address: only for the
        // domain it was configured for, and never for an address it says it has not verified.
        const problem = externalEmailProblem(identity.email, identity.emailVerified, pending.domain);
        if (problem) return fail(problem);
      }
      const step = await tx(async (session) => {
        let user = !byEmail
          ? await findUserByExternalId(session, identity.subject)
          : identity.email
            ? await findUserByEmail(session, identity.email)
            : undefined;
        if (!user) return undefined;
        if (byEmail && identity.emailVerified === true) user = await addressProvedByProvider(session, user);
        const client = pending.clientId ? await readClient(session, pending.clientId) : undefined;
        const login = await createLogin(session, {
          user,
          client,
          authMethod: 'external',
          codeChallenge: pending.codeChallenge,
          codeChallengeMethod: pending.codeChallengeMethod,
          projectId: pending.projectId,
          scope: pending.scope,
          ...(pending.clientRedirectUri ? { redirectUri: pending.clientRedirectUri } : {}),
          remoteAddress: request.ip,
          userAgent: request.headers['user-agent'],
        });
        return continueLogin(session, login, user);
      }).catch((error: unknown) => {
        // A refusal of the sign-in itself (an app of another project) goes back to the page that started it.
        if (error instanceof FhirError && error.status < 500) return error;
        throw error;
      });
      if (step instanceof FhirError) return fail(step.message);
      if (!step) return fail('No Hearth EMR account matches this identity');
      back.searchParams.set('login', step.login);
      if ('code' in step) back.searchParams.set('code', step.code);
      return reply.redirect(back.toString());
    },
  );

  let googleKeys: ReturnType<typeof createRemoteJWKSet> | undefined;
  app.post('/auth/google', async (request) => {
    const clientId = env.config.googleClientId;
    if (!clientId)
      throw errors.notSupported('Google sign-in is not enabled on this server (GOOGLE_CLIENT_ID is not set)');
    const body = authBody(request.body);
    const credential = requiredString(body, 'googleCredential', 'Google credential');
    const pkce = pkceParameters(body);
    if (!pkce.codeChallenge) throw errors.invalid('Missing codeChallenge', 'codeChallenge');
    if (optionalString(body, 'googleClientId') && body.googleClientId !== clientId) {
      throw errors.invalid('Google client id does not match this server', 'googleClientId');
    }
    googleKeys ??= createRemoteJWKSet(new URL(env.config.googleJwksUrl));
    let email: string | undefined;
    try {
      const { payload } = await jwtVerify(credential, googleKeys, {
        audience: clientId,
        issuer: ['accounts.google.com', 'https://accounts.google.com'],
      });
      if (payload.email_verified !== true) throw new Error('e-mail not verified');
      email = typeof payload.email === 'string' ? payload.email.toLowerCase() : undefined;
    } catch (error) {
      throw errors.invalid(`Invalid Google credential: ${(error as Error).message}`, 'googleCredential');
    }
    if (!email) throw errors.invalid('The Google credential carries no e-mail', 'googleCredential');
    return tx(async (session) => {
      let user = (await findUserByEmail(session, email)) as User | undefined;
      if (!user) throw errors.invalid('No Hearth EMR account uses this Google address', 'googleCredential');
      user = await addressProvedByProvider(session, user);
      const login = await createLogin(session, {
        user,
        authMethod: 'google',
        scope: optionalString(body, 'scope'),
        projectId: optionalString(body, 'projectId'),
        remoteAddress: request.ip,
        userAgent: request.headers['user-agent'],
        ...pkce,
      });
      return continueLogin(session, login, user);
    });
  });
}

/**
 * Why an e-mail an identity provider vouched for cannot sign in to the account with that address:
 * the provider said it has not verified it, or it is outside the domain the provider was configured
 * for (a DomainConfiguration makes a provider the authority for its own domain only). Undefined when
 * it may.
 */
export function externalEmailProblem(
  email: string,
  emailVerified: boolean | undefined,
  domain: string | undefined,
): string | undefined {
  if (emailVerified === false) return 'The identity provider has not verified this e-mail address';
  if (domain && email.split('@')[1]?.toLowerCase() !== domain.toLowerCase()) {
    return `The identity provider answered for an address outside ${domain}`;
  }
  return undefined;
}

/**
 * The person signed in through a provider that verified the account's address. The account counts
 * as verified from now on only if it has no password: a password set before the address was proved
 * may be someone else's (an open registration or an inviter chose it), and the provider's word does
 * not take it away — the set-password link e-mailed by an invitation, or "Forgot password", does.
 */
async function addressProvedByProvider(session: RepositorySession, user: User): Promise<User> {
  if (user.passwordHash || (await addressVerified(session, user))) return user;
  return confirmAddressOwner(session, user);
}
