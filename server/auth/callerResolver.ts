import type { AccessPolicy, Login, Project, ProjectMembership, Reference, UserConfiguration } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession, RequestContext } from '../fhir/repository';
import { readLogin, readProject, readReference } from './accountStore';
import { defaultClientId, type AuthEnvironment } from './authEnvironment';
import { accessForLogin } from './loginAccess';
import { membershipUsable } from './membershipState';
import { TokenError } from './signingKeys';

/** Who is calling: the signed-in login, its membership and what its access policy allows. */
export interface Caller {
  login: Login;
  membership: ProjectMembership;
  project: Project;
  profile: Reference;
  accessPolicy?: AccessPolicy;
  config?: UserConfiguration;
  clientId: string;
  scope: string;
  superAdmin: boolean;
  projectAdmin: boolean;
  ctx: RequestContext;
  /** The token's `exp` claim (seconds since 1970), when it has one. */
  expires?: number;
}

/** Turns a bearer token into a Caller, or a 401 (Unauthorized, Token expired, token not issued for this audience). */
export async function resolveCaller(env: AuthEnvironment, session: RepositorySession, token: string): Promise<Caller> {
  let claims;
  try {
    claims = await env.keys.verify(token);
  } catch (error) {
    if (error instanceof TokenError && error.reason === 'expired')
      throw errors.unauthorized('Token expired', 'expired');
    throw errors.unauthorized();
  }
  const loginId = typeof claims.login_id === 'string' ? claims.login_id : undefined;
  const login = loginId ? await readLogin(session, loginId) : undefined;
  if (!login || login.revoked || !login.granted || !login.membership) throw errors.unauthorized();
  const expectedAudience = login.client?.reference?.split('/')[1] ?? defaultClientId;
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expectedAudience) || claims.client_id !== expectedAudience) {
    throw errors.unauthorized('token not issued for this audience', 'invalid');
  }
  const membership = await readReference<ProjectMembership>(session, login.membership);
  // Inactive, or waiting for the owner of the address (membershipState.ts): no call is made as it.
  if (!membershipUsable(membership)) throw errors.unauthorized();
  const project = await readProject(session, membership.project);
  if (!project) throw errors.unauthorized();
  const { access, policy: accessPolicy } = await accessForLogin(
    session,
    env,
    login,
    membership,
    project,
    claims.patient,
  );
  const config = await readReference<UserConfiguration>(session, membership.userConfiguration);
  const superAdmin = project.superAdmin === true;
  const profile = membership.profile as Reference;
  return {
    login,
    membership,
    project,
    profile,
    accessPolicy,
    config,
    clientId: expectedAudience,
    scope: typeof claims.scope === 'string' ? claims.scope : '',
    superAdmin,
    projectAdmin: membership.admin === true,
    ctx: { projectId: project.id as string, author: profile, access },
    ...(typeof claims.exp === 'number' ? { expires: claims.exp } : {}),
  };
}
