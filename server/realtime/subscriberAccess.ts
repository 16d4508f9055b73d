import type { Login, ProjectMembership } from '@medplum/fhirtypes';
import { readLogin, readProject, readReference } from '../auth/accountStore';
import { AccessGuard } from '../auth/accessGuard';
import { effectivePolicy } from '../auth/membershipPolicy';
import type { Repository } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';

/** A subscriber as the server judges it when notifying: its login and what it may read. */
export interface Subscriber {
  loginId: string;
  projectId: string;
  access: AccessGuard;
}

/** Types whose writes can change what a subscriber may read (or whether it may read at all). */
export const accessDefiningTypes = new Set(['Login', 'ProjectMembership', 'AccessPolicy', 'Project']);

/**
 * The subscriber behind a login, evaluated like a signed-in caller (callerResolver.ts) but without a
 * token: undefined once the login is revoked, its membership inactive or gone. Cached per login;
 * `invalidate` is called whenever an access-defining resource changes on any process, and entries
 * also expire, so that a change another process failed to announce still takes effect.
 */
export class SubscriberDirectory {
  private readonly cache = new Map<string, { at: number; subscriber: Promise<Subscriber | undefined> }>();

  constructor(
    private readonly repository: Repository,
    private readonly registry: SearchParameterRegistry,
    private readonly sharedProjectId: string,
    private readonly maxAgeMs = 30_000,
  ) {}

  get(loginId: string): Promise<Subscriber | undefined> {
    const cached = this.cache.get(loginId);
    if (cached && Date.now() - cached.at < this.maxAgeMs) return cached.subscriber;
    const subscriber = this.resolve(loginId).catch((error: unknown) => {
      this.cache.delete(loginId);
      throw error;
    });
    this.cache.set(loginId, { at: Date.now(), subscriber });
    return subscriber;
  }

  invalidate(): void {
    this.cache.clear();
  }

  private resolve(loginId: string): Promise<Subscriber | undefined> {
    return this.repository.transaction(async (session) => {
      const login: Login | undefined = await readLogin(session, loginId);
      if (!login || login.revoked || !login.granted || !login.membership) return undefined;
      const membership = await readReference<ProjectMembership>(session, login.membership);
      if (!membership || membership.active === false) return undefined;
      const project = await readProject(session, membership.project);
      if (!project?.id) return undefined;
      const policy = await effectivePolicy(session, membership, project);
      const access = new AccessGuard(
        {
          projectId: project.id,
          sharedProjectId: this.sharedProjectId,
          superAdmin: project.superAdmin === true,
          policy,
        },
        this.registry.forProject(project.id),
      );
      return { loginId, projectId: project.id, access };
    });
  }
}
