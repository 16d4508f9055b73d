import type { FastifyInstance } from 'fastify';
import type { Login, User } from '@medplum/fhirtypes';
import { resourceScopesOf } from '../../data-provider/access';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { readClient, readReference } from './accountStore';
import type { AuthEnvironment } from './authEnvironment';
import { authBody, optionalString, pkceParameters, requiredString } from './authInput';
import { authenticate } from './authenticate';
import type { Caller } from './callerResolver';
import { isRegisteredRedirectUri } from './clientRedirect';
import { clientProjectScope, outsideClientProject } from './clientProject';
import { chooseMembership, createLogin, remembers, type LoginStart, type LoginStep } from './loginService';
import { mfaPending } from './mfaPending';
import { hasOwnCredentials } from './ownCredentials';
import { launchAvailability } from './launchAvailability';

export const onlyHearthSessions =
  'Only a Hearth EMR session can continue into another application: sign in on this page instead';

export const narrowedSession =
  'A session limited by SMART scopes cannot continue into another application: sign in on this page instead';

/**
 * Only a person's own Hearth EMR session may start another application's sign-in — the rule that
 * already guards the account's security (ownCredentials.ts), and a person (not a bot). A token
 * issued to a ClientApplication must never mint a sign-in for a second app: that would let one app
 * widen its own access through another's scopes.
 *
 * Nor may a session that SMART resource scopes narrow (a sign-in that asked for
 * `user/Observation.read`, say): the app's scopes are whatever this request names, and the patient
 * picker runs as the membership, so its holder would get back the access its own scopes left out.
 * The web app's sessions carry no resource scopes (`openid profile`).
 */
function requireHearthSession(caller: Caller): void {
  if (!hasOwnCredentials(caller) || !caller.login.user?.reference?.startsWith('User/')) {
    throw errors.forbidden(onlyHearthSessions);
  }
  if (resourceScopesOf(caller.login.scope) !== undefined) throw errors.forbidden(narrowedSession);
}

/**
 * `POST /auth/continue`: a third-party app's sign-in (the `/oauth` page, OAuth2 code flow) started
 * from the Hearth EMR session already open in this browser, so a clinician who launches an app
 * from the chart does not type their password again. It checks what `/auth/login` checks (the
 * client, its registered redirect URI, PKCE) and then takes the session's person, project and
 * profile instead of credentials; the consent step (the scopes) still follows, and the code goes
 * only to the app's registered address. The new sign-in is a Login of its own: it outlives neither
 * the session's length (`remember` is the session's) nor its two-factor step (a session that has
 * not passed it passes it here).
 */
export async function sessionContinuationRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  app.post('/auth/continue', async (request) => {
    const caller = await authenticate(env, request);
    requireHearthSession(caller);
    const body = authBody(request.body);
    const clientId = requiredString(body, 'clientId', 'Client');
    const redirectUri = requiredString(body, 'redirectUri', 'Redirect URI');
    const pkce = pkceParameters(body);
    return env.repository.transaction(async (session): Promise<LoginStep> => {
      const client = await readClient(session, clientId);
      if (!client) throw errors.invalid('Client not found', 'clientId');
      if (!isRegisteredRedirectUri(client, redirectUri)) throw errors.invalid('Invalid redirect_uri', 'redirectUri');
      if (!pkce.codeChallenge && !client.pkceOptional) throw errors.invalid('Missing codeChallenge', 'codeChallenge');
      const user = await readReference<User>(session, caller.login.user);
      if (!user) throw errors.forbidden(onlyHearthSessions);
      const login = await createLogin(session, {
        user,
        client,
        authMethod: caller.login.authMethod as LoginStart['authMethod'],
        scope: optionalString(body, 'scope'),
        nonce: optionalString(body, 'nonce'),
        remember: remembers(caller.login),
        remoteAddress: request.ip,
        userAgent: request.headers['user-agent'],
        projectId: caller.project.id,
        launch: optionalString(body, 'launch'),
        // Redeemed only with this same redirect_uri (RFC 6749 §4.1.3; exchangeCode).
        redirectUri,
        continuedFrom: caller.login,
        ...pkce,
      });
      return continueAs(session, login, caller);
    });
  });

  /**
   * `GET /auth/continue/launch/{launch}`: could this session continue into the EHR launch the app
   * was opened with (launchAvailability.ts)? The `/oauth` page asks it with each account's own
   * token and offers only the accounts that can, instead of one the token endpoint refuses after
   * the click. It answers for the caller's own profile only, and only to a session that could
   * continue at all (the POST's rule), so an app's token learns nothing of launches here.
   */
  app.get<{ Params: { launch: string } }>('/auth/continue/launch/:launch', async (request, reply) => {
    const caller = await authenticate(env, request);
    requireHearthSession(caller);
    const who = { projectId: caller.project.id as string, profile: caller.membership.profile ?? caller.profile };
    const answer = await env.repository.transaction((session) =>
      launchAvailability(session, request.params.launch, who, Date.now()),
    );
    // The answer changes with time and with other sign-ins: never from a cache.
    return reply.header('cache-control', 'no-store').send(answer);
  });
}

async function continueAs(session: RepositorySession, login: Login, caller: Caller): Promise<LoginStep> {
  const confined = await clientProjectScope(session, login);
  if (confined && confined !== caller.project.id) throw errors.forbidden(outsideClientProject);
  // A session begun before the account enrolled two-factor sign-in has not passed it: it does now.
  if (await mfaPending(session, login)) return { login: login.id as string, mfaRequired: true };
  return chooseMembership(session, login, caller.membership);
}
