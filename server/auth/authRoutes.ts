import type { FastifyInstance } from 'fastify';
import type { Login, Project, ProjectMembership, User, UserSecurityRequest } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { findUserByEmail, membershipsOf, normalizeEmail, readClient, readProject, readReference } from './accountStore';
import { accountsProjectId, type AuthEnvironment } from './authEnvironment';
import { authBody, newPassword, optionalString, pkceParameters, requiredEmail, requiredString } from './authInput';
import { authenticate } from './authenticate';
import {
  chooseMembership,
  confirmScope,
  continueLogin,
  createLogin,
  describeMembership,
  hashSecret,
  newSecret,
  pendingLogin,
  revokeLogin,
} from './loginService';
import { hashPassword, verifyPassword } from './passwordHash';
import { createUserProfile } from './userProfile';
import { accountThrottle, addressThrottle, checkThrottle, clearFailures, recordFailure } from './signInThrottle';
import { externalAuthorizeUrl, findDomainProvider } from './externalIdentity';
import { isRegisteredRedirectUri } from './clientRedirect';
import { mfaPending } from './mfaPending';
import { clientProjectScope, outsideClientProject } from './clientProject';
import { endSessions } from './endSessions';
import { hasOwnCredentials, requireOwnCredentials } from './ownCredentials';
import { systemAuthor } from '../definitions/loadDefinitions';
import { seedBundledQuestionnaires } from '../seed/bundledQuestionnaires';
import { needsPatientChoice } from './launchContext';
import { allMembershipsOf, confirmAddressOwner } from './addressOwnership';
import { chooseLaunchPatient } from './launchPatientChoice';
import { isScopeNarrowed, scopedSessionDetails } from './scopedSessionDetails';

// Verifying against a fixed hash when the e-mail is unknown keeps both answers equally slow.
const dummyHashPromise = hashPassword('not-a-real-password-hearth');

/** Medplum-compatible sign-in endpoints under /auth (a Fastify plugin). */
export async function authRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const tx = <T>(work: (session: RepositorySession) => Promise<T>) => env.repository.transaction(work);

  app.post('/auth/method', async (request) => {
    const body = authBody(request.body);
    const email = requiredEmail(body);
    const provider = await tx((session) => findDomainProvider(session, email));
    if (!provider) return { domain: email.split('@')[1], method: 'password' };
    const clientId = optionalString(body, 'clientId');
    const redirectUri = optionalString(body, 'redirectUri');
    // The code goes back into this app, or to an address the client registered; a third-party app's
    // own redirect_uri (where the app's /oauth page will send the code) must be registered too.
    const clientRedirectUri = optionalString(body, 'clientRedirectUri');
    const needsRegistration = [
      ...(redirectUri && !isAppAddress(redirectUri, env.config.baseUrl) ? [redirectUri] : []),
      ...(clientRedirectUri ? [clientRedirectUri] : []),
    ];
    if (needsRegistration.length > 0) {
      const client = clientId ? await tx((session) => readClient(session, clientId)) : undefined;
      const refused = needsRegistration.find((address) => !isRegisteredRedirectUri(client, address));
      if (refused)
        throw errors.invalid('Invalid redirect_uri', refused === redirectUri ? 'redirectUri' : 'clientRedirectUri');
    }
    const authorizeUrl = await externalAuthorizeUrl(env, provider, {
      projectId: optionalString(body, 'projectId'),
      clientId,
      redirectUri,
      ...(clientRedirectUri ? { clientRedirectUri } : {}),
      scope: optionalString(body, 'scope'),
      ...pkceParameters(body),
    });
    return { domain: provider.domain, method: 'external', authorizeUrl };
  });

  app.post('/auth/login', async (request) => {
    const body = authBody(request.body);
    const email = requiredEmail(body);
    const password = requiredString(body, 'password', 'Password');
    const clientId = optionalString(body, 'clientId');
    const pkce = pkceParameters(body);
    const client = clientId ? await tx((session) => readClient(session, clientId)) : undefined;
    if (clientId && !client) throw errors.invalid('Client not found', 'clientId');
    // The web app's /oauth page names where the code will go: only an address the client registered.
    const redirectUri = optionalString(body, 'redirectUri');
    if (redirectUri && !isRegisteredRedirectUri(client, redirectUri)) {
      throw errors.invalid('Invalid redirect_uri', 'redirectUri');
    }
    if (!pkce.codeChallenge && !client?.pkceOptional) throw errors.invalid('Missing codeChallenge', 'codeChallenge');
    const throttleKeys = [
      [`email:${email}`, accountThrottle],
      [`ip:${request.ip}`, addressThrottle],
    ] as [string, typeof accountThrottle][];
    await checkThrottle(env.repository.db, throttleKeys);
    const user = await tx((session) => findUserByEmail(session, email));
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHashPromise));
    if (!user || !ok) {
      await recordFailure(env.repository.db, throttleKeys);
      // One message for both cases: the answer never tells whether the e-mail exists.
      throw errors.invalid('Email or password is invalid', 'password');
    }
    await clearFailures(env.repository.db, `email:${email}`);
    return tx(async (session) => {
      const login = await createLogin(session, {
        user,
        client,
        authMethod: 'password',
        scope: optionalString(body, 'scope'),
        nonce: optionalString(body, 'nonce'),
        remember: body.remember === true,
        remoteAddress: request.ip,
        userAgent: request.headers['user-agent'],
        projectId: optionalString(body, 'projectId'),
        launch: optionalString(body, 'launch'),
        // The token request must name it again (RFC 6749 §4.1.3): a code caught on its way to
        // one registered address cannot be redeemed as if it had been sent to another.
        ...(redirectUri ? { redirectUri } : {}),
        ...pkce,
      });
      return continueLogin(session, login, user);
    });
  });

  app.get<{ Params: { login: string } }>('/auth/login/:login', async (request) =>
    tx(async (session) => {
      const login = await pendingLogin(session, request.params.login, { mfa: 'may be pending' });
      const user = await readReference<User>(session, login.user);
      if (!user) throw errors.invalid('Login not found', 'login');
      // Until the two-factor code is given, the answer says only that it is due: the password alone
      // does not reveal which projects the account belongs to.
      if (await mfaPending(session, login))
        return { id: login.id, email: user.email, mfaRequired: true, memberships: [] };
      const memberships = await membershipsOf(
        session,
        { reference: `User/${user.id}` },
        await clientProjectScope(session, login),
      );
      return {
        id: login.id,
        email: user.email,
        mfaRequired: false,
        membership: login.membership,
        memberships: await Promise.all(memberships.map((m) => describeMembership(session, m))),
        ...(login.client ? { client: login.client } : {}),
        scope: login.scope,
      };
    }),
  );

  app.post('/auth/profile', async (request) => {
    const body = authBody(request.body);
    const profileId = requiredString(body, 'profile', 'Profile');
    return tx(async (session) => {
      const login = await pendingLogin(session, body.login);
      const membership = await readReference<ProjectMembership>(session, {
        reference: `ProjectMembership/${profileId}`,
      });
      if (!membership || membership.user?.reference !== login.user?.reference) {
        throw errors.invalid('Profile not found', 'profile');
      }
      const confined = await clientProjectScope(session, login);
      if (confined && membership.project?.reference !== `Project/${confined}`) {
        throw errors.invalid('Profile not found', 'profile');
      }
      return chooseMembership(session, login, membership);
    });
  });

  app.post('/auth/scope', async (request) => {
    const body = authBody(request.body);
    const scope = requiredString(body, 'scope', 'Scope');
    const patient = optionalString(body, 'patient');
    return tx(async (session) => {
      let login = await pendingLogin(session, body.login);
      // A clinician's standalone launch names its patient here, unless launch/patient was unticked.
      if (needsPatientChoice(login) && scope.split(/\s+/).includes('launch/patient')) {
        if (!patient) throw errors.invalid('Choose the patient the application is about', 'patient');
        login = await chooseLaunchPatient(session, env, login, patient);
      } else if (patient) {
        throw errors.invalid('This sign-in does not ask for a patient', 'patient');
      }
      return confirmScope(session, login, scope);
    });
  });

  app.post('/auth/newuser', async (request) => {
    if (env.config.registration !== 'open') throw errors.forbidden('Registration is closed on this server');
    const body = authBody(request.body);
    const firstName = requiredString(body, 'firstName', 'First name').trim();
    const lastName = requiredString(body, 'lastName', 'Last name').trim();
    const email = requiredEmail(body);
    const password = newPassword(body);
    const pkce = pkceParameters(body);
    if (!pkce.codeChallenge) throw errors.invalid('Missing codeChallenge', 'codeChallenge');
    const projectId = optionalString(body, 'projectId');
    const passwordHash = await hashPassword(password);
    return tx(async (session) => {
      if (projectId && !(await readProject(session, { reference: `Project/${projectId}` }))) {
        throw errors.invalid('Project not found', 'projectId');
      }
      if (await findUserByEmail(session, email)) throw errors.invalid('Email already registered', 'email');
      // Nobody has proved that the address is the registrant's: an invitation of another project
      // that later finds this account waits for the address owner (addressOwnership.ts).
      const user = (await session.create(
        { projectId: accountsProjectId, author: systemAuthor },
        { resourceType: 'User', firstName, lastName, email, emailVerified: false, passwordHash } as User,
        { trusted: false },
      )) as User;
      const login = await createLogin(session, {
        user: { ...user, passwordHash },
        authMethod: 'password',
        scope: optionalString(body, 'scope'),
        remoteAddress: request.ip,
        userAgent: request.headers['user-agent'],
        projectId,
        ...pkce,
      });
      return { login: login.id };
    });
  });

  app.post('/auth/newproject', async (request) => {
    if (env.config.registration !== 'open') throw errors.forbidden('Registration is closed on this server');
    const body = authBody(request.body);
    const projectName = requiredString(body, 'projectName', 'Project name').trim();
    return tx(async (session) => {
      const login = await pendingLogin(session, body.login);
      const user = await readReference<User>(session, login.user);
      if (!user) throw errors.invalid('Login not found', 'login');
      if (await clientProjectScope(session, login)) throw errors.forbidden(outsideClientProject);
      const projectId = crypto.randomUUID();
      const ctx = { projectId, author: systemAuthor };
      const project = (await session.create(
        ctx,
        { resourceType: 'Project', name: projectName, owner: { reference: `User/${user.id}` } } as Project,
        { id: projectId, fresh: true },
      )) as Project;
      const membership = await createUserProfile(session, user, project, 'Practitioner', { admin: true });
      await seedBundledQuestionnaires(session, projectId);
      return chooseMembership(session, { ...login, project: undefined }, membership);
    });
  });

  app.post('/auth/newpatient', async (request) => {
    const body = authBody(request.body);
    const projectId = requiredString(body, 'projectId', 'Project');
    return tx(async (session) => {
      const login = await pendingLogin(session, body.login);
      const user = await readReference<User>(session, login.user);
      if (!user) throw errors.invalid('Login not found', 'login');
      const project = await readProject(session, { reference: `Project/${projectId}` });
      if (!project) throw errors.invalid('Project not found', 'projectId');
      const confined = await clientProjectScope(session, login);
      if (confined && confined !== projectId) throw errors.forbidden(outsideClientProject);
      // A project opts in to patient self-registration by naming the policy its patients get.
      if (!project.defaultPatientAccessPolicy) {
        throw errors.forbidden('This project does not allow patients to register themselves');
      }
      // Any membership counts, usable or not: a second one must not get round an admin who made the
      // first inactive, nor an invitation that waits for the owner of the address.
      const existing = await allMembershipsOf(session, { reference: `User/${user.id}` }, projectId);
      if (existing.length > 0) throw errors.invalid('Already registered in this project', 'projectId');
      const membership = await createUserProfile(session, user, project, 'Patient', {
        accessPolicy: project.defaultPatientAccessPolicy,
      });
      return chooseMembership(session, login, membership);
    });
  });

  app.get('/auth/me', async (request) => {
    const caller = await authenticate(env, request);
    // A third-party app's token narrowed by SMART scopes: only what they allow (scopedSessionDetails.ts).
    if (isScopeNarrowed(caller)) return scopedSessionDetails(env.repository, caller);
    return tx(async (session) => {
      const profile = await readReference(session, caller.profile);
      const user = await readReference<User>(session, caller.login.user);
      // A token vouched for by a project's own identity provider does not see the account's other sessions.
      const sessions = user && hasOwnCredentials(caller) ? await activeSessions(session, user) : [];
      const {
        secret: _secret,
        systemSecret: _systemSecret,
        ...project
      } = caller.project as Project & {
        secret?: unknown;
        systemSecret?: unknown;
      };
      return {
        user: user
          ? { resourceType: 'User', id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName }
          : undefined,
        profile,
        project,
        membership: caller.membership,
        config: caller.config,
        accessPolicy: caller.accessPolicy,
        security: {
          mfaEnrolled: user?.mfaEnrolled === true,
          sessions,
        },
      };
    });
  });

  app.post('/auth/revoke', async (request) => {
    const caller = await authenticate(env, request);
    requireOwnCredentials(caller);
    const loginId = requiredString(authBody(request.body), 'loginId', 'Session');
    await tx(async (session) => {
      const login = await readReference<Login>(session, { reference: `Login/${loginId}` });
      // Only one's own sessions: anything else answers as if it did not exist.
      if (!login || login.user?.reference !== caller.login.user?.reference) throw errors.notFound();
      await revokeLogin(session, loginId);
    });
    return { ok: true };
  });

  app.post('/auth/changepassword', async (request) => {
    const caller = await authenticate(env, request);
    requireOwnCredentials(caller);
    const body = authBody(request.body);
    const oldPassword = requiredString(body, 'oldPassword', 'Current password');
    const password = newPassword(body, 'newPassword');
    const user = await tx((session) => readReference<User>(session, caller.login.user));
    if (!user || user.resourceType !== 'User') throw errors.forbidden('Only users have passwords');
    if (!(await verifyPassword(oldPassword, user.passwordHash ?? (await dummyHashPromise)))) {
      throw errors.invalid('Incorrect password', 'oldPassword');
    }
    const passwordHash = await hashPassword(password);
    await tx(async (session) => {
      await session.update(
        { projectId: user.meta?.project ?? accountsProjectId, author: systemAuthor },
        { ...user, passwordHash },
      );
      // Whoever else signed in with the old password is signed out; this session goes on.
      await endSessions(session, user.id as string, caller.login.id);
    });
    return { ok: true };
  });

  app.post('/auth/resetpassword', async (request) => {
    const body = authBody(request.body);
    const email = requiredEmail(body);
    const user = await tx((session) => findUserByEmail(session, email));
    if (user) {
      const secret = newSecret();
      const securityRequest = await tx(
        (session) =>
          session.create({ projectId: user.meta?.project ?? accountsProjectId, author: systemAuthor }, {
            resourceType: 'UserSecurityRequest',
            type: 'reset',
            user: { reference: `User/${user.id}` },
            secret: hashSecret(secret),
          } as UserSecurityRequest) as Promise<UserSecurityRequest>,
      );
      const link = `${env.config.baseUrl}setpassword/${securityRequest.id}/${secret}`;
      // Not awaited: a slow or failing SMTP server must not make this answer differ for known e-mails.
      env.email
        .send({
          to: user.email as string,
          subject: 'Reset your Hearth EMR password',
          text: `Someone asked to reset the password of ${user.email} on Hearth EMR.\n\nTo choose a new password, open:\n${link}\n\nThe link works once, for 24 hours. If you did not ask, ignore this message.`,
        })
        .catch((error: unknown) => request.log.error({ err: error }, 'password reset e-mail failed'));
    }
    // The same answer either way: the endpoint does not tell who has an account.
    return { ok: true };
  });

  app.post('/auth/setpassword', async (request) => {
    const body = authBody(request.body);
    const id = requiredString(body, 'id', 'Request');
    const secret = requiredString(body, 'secret', 'Secret');
    const password = newPassword(body);
    const passwordHash = await hashPassword(password);
    const email = await tx(async (session) => {
      const securityRequest = await readReference<UserSecurityRequest>(session, {
        reference: `UserSecurityRequest/${id}`,
      });
      const expired =
        securityRequest && Date.now() - Date.parse(securityRequest.meta?.lastUpdated as string) > 24 * 3600_000;
      if (!securityRequest || securityRequest.used || expired || securityRequest.secret !== hashSecret(secret)) {
        throw errors.invalid('This password link is invalid or has expired', 'secret');
      }
      const user = await readReference<User>(session, securityRequest.user);
      if (!user) throw errors.invalid('This password link is invalid or has expired', 'secret');
      const ctx = { projectId: user.meta?.project ?? accountsProjectId, author: systemAuthor };
      // Whoever opened the link reads the address's mail: the address is proved, the password that
      // was there (perhaps chosen by someone else) is replaced, and the invitations that waited for
      // the owner become usable (addressOwnership.ts).
      await confirmAddressOwner(session, user, { passwordHash });
      await session.update(ctx, { ...securityRequest, used: true });
      // A reset means the old password may be known to someone else: every session ends.
      await endSessions(session, user.id as string);
      return user.email;
    });
    // A new password ends a lockout earned by the forgotten one.
    if (email) await clearFailures(env.repository.db, `email:${normalizeEmail(email)}`);
    return { ok: true };
  });

  app.get('/auth/registration', async () => ({
    registration: env.config.registration,
    googleClientId: env.config.googleClientId ?? null,
  }));
}

async function activeSessions(session: RepositorySession, user: User) {
  const rows = await session.tx.query<{ content: Login }>(
    `SELECT r.content FROM resources r JOIN search_reference s ON s.resource_type = r.resource_type AND s.resource_id = r.id
     WHERE r.resource_type = 'Login' AND NOT r.deleted AND s.code = 'user' AND s.target_type = 'User' AND s.target_id = $1
       AND (r.content->>'granted')::boolean AND NOT coalesce((r.content->>'revoked')::boolean, false)
     ORDER BY r.last_updated DESC LIMIT 50`,
    [user.id],
  );
  return rows.map(({ content }) => ({
    id: content.id,
    lastUpdated: content.meta?.lastUpdated,
    authMethod: content.authMethod,
    remoteAddress: content.remoteAddress,
    userAgent: content.userAgent,
  }));
}

/** Is `address` a page of this web app (same origin as BASE_URL)? */
function isAppAddress(address: string, baseUrl: string): boolean {
  try {
    return new URL(address).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
