import type { Project, ProjectMembership, Reference, Resource, User } from '@medplum/fhirtypes';
import { resourceScopesOf } from '../../data-provider/access';
import { FhirError } from '../fhir/fhirError';
import type { Repository } from '../fhir/repository';
import { readReference } from './accountStore';
import type { Caller } from './callerResolver';
import { scopeSet } from './userInfoClaims';

/**
 * Is the caller's token narrowed by SMART resource scopes (`patient/Observation.rs`, `user/*.read`…)?
 * Such a token was granted to a third-party app, which the person allowed only those scopes; the web
 * app signs in with `openid profile` and Medplum clients with `openid`, which narrow nothing
 * (data-provider/access/smartScopes.ts `resourceScopesOf`, the same test AccessGuard applies).
 */
export function isScopeNarrowed(caller: Caller): boolean {
  return resourceScopesOf(caller.login.scope) !== undefined;
}

/** The answer of `GET auth/me` to a token narrowed by SMART resource scopes. */
export interface ScopedSessionDetails {
  user?: { resourceType: 'User'; id?: string; email?: string; firstName?: string; lastName?: string };
  profile: Resource;
  project: Pick<Project, 'resourceType' | 'id' | 'name'>;
  membership: Pick<ProjectMembership, 'resourceType' | 'id' | 'project' | 'profile'>;
}

/**
 * `GET auth/me` for a token narrowed by SMART resource scopes: what the scopes allow, and what a
 * client (Medplum's `MedplumClient` reads `profile.id` after every sign-in) needs to know whose
 * session it holds — nothing of the person's access policy, user configuration, membership details
 * or account security, which are the web app's:
 * - `profile`: the profile resource as a FHIR read with this token answers it (policy and scopes
 *   applied, hidden fields removed); when the scopes do not allow reading it, only its type and id
 *   (the token response's `profile` / `fhirUser` already name them);
 * - `user`: its id; the e-mail with the `email` scope, the names with `profile` (as `/oauth2/userinfo`);
 * - `project`: id and name; `membership`: id, project and profile references.
 */
export async function scopedSessionDetails(repository: Repository, caller: Caller): Promise<ScopedSessionDetails> {
  const scopes = scopeSet(caller.scope);
  const [profileType, profileId] = (caller.profile.reference ?? '').split('/');
  const profile = await repository
    .transaction((session) => session.read(profileType, profileId), caller.ctx.access)
    .catch((error: unknown) => {
      // Not granted (403), or not to be seen (404, 410): the reference only.
      if (error instanceof FhirError && error.status < 500) return undefined;
      throw error;
    });
  const user = await repository.transaction((session) => readReference<User>(session, caller.login.user));
  return {
    ...(user?.resourceType === 'User'
      ? {
          user: {
            resourceType: 'User',
            id: user.id,
            ...(scopes.has('email') ? { email: user.email } : {}),
            ...(scopes.has('profile') ? { firstName: user.firstName, lastName: user.lastName } : {}),
          },
        }
      : {}),
    profile: profile ?? ({ resourceType: profileType, id: profileId } as Resource),
    project: { resourceType: 'Project', id: caller.project.id, name: caller.project.name },
    membership: {
      resourceType: 'ProjectMembership',
      id: caller.membership.id,
      project: caller.membership.project as Reference<Project>,
      profile: caller.membership.profile,
    },
  };
}
