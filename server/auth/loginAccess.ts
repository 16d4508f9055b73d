import type { AccessPolicy, Login, Project, ProjectMembership, Reference, SmartAppLaunch } from '@medplum/fhirtypes';
import { resourceScopesOf } from '../../data-provider/access';
import type { RepositorySession } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { readReference } from './accountStore';
import { AccessGuard } from './accessGuard';
import { effectivePolicy } from './membershipPolicy';

/**
 * The patient `patient/` scopes are about: the token's `patient` claim when it has one, else the
 * login's SMART launch context, else the signed-in person when they are a Patient. Undefined when
 * there is none (then `patient/` scopes grant nothing).
 */
async function launchPatientOf(
  session: RepositorySession,
  login: Login,
  profile: Reference,
  claimedPatient: unknown,
): Promise<string | undefined> {
  if (typeof claimedPatient === 'string' && claimedPatient.length > 0) {
    return claimedPatient.startsWith('Patient/') ? claimedPatient : `Patient/${claimedPatient}`;
  }
  const launch = await readReference<SmartAppLaunch>(session, login.launch);
  const launched = launch?.patient?.reference;
  if (launched?.startsWith('Patient/')) return launched;
  return profile.reference?.startsWith('Patient/') ? profile.reference : undefined;
}

/**
 * What a login may do: its membership's access policy, narrowed by the SMART resource scopes it
 * was granted (`Login.scope`, the same as the token's `scope` claim). One definition for callers
 * (callerResolver.ts) and websocket subscribers (realtime/subscriberAccess.ts).
 */
export async function accessForLogin(
  session: RepositorySession,
  environment: { sharedProjectId: string; registry: SearchParameterRegistry },
  login: Login,
  membership: ProjectMembership,
  project: Project,
  claimedPatient?: unknown,
): Promise<{ access: AccessGuard; policy?: AccessPolicy }> {
  const policy = await effectivePolicy(session, membership, project);
  const scopes = resourceScopesOf(login.scope);
  const profile = membership.profile as Reference;
  const launchPatient = scopes ? await launchPatientOf(session, login, profile, claimedPatient) : undefined;
  const access = new AccessGuard(
    {
      projectId: project.id as string,
      sharedProjectId: environment.sharedProjectId,
      superAdmin: project.superAdmin === true,
      projectAdmin: membership.admin === true,
      policy,
      ...(scopes ? { scopes, launchPatient } : {}),
    },
    // The policy's criteria are read with the search parameters of the project they belong to.
    environment.registry.forProject(project.id as string),
  );
  return { access, policy };
}
