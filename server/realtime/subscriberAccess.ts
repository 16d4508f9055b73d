import type { Login, ProjectMembership } from '@medplum/fhirtypes';
import { readClient, readLogin, readProject, readReference } from '../auth/accountStore';
import type { AccessGuard } from '../auth/accessGuard';
import { accessForLogin } from '../auth/loginAccess';
import type { Repository } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { loginSessionEnd } from './loginSessionEnd';

/** A subscriber as the server judges it when notifying: its login and what it may read. */
export interface Subscriber {
  loginId: string;
  projectId: string;
  access: AccessGuard;
  /** When the login's session ends (ms since 1970, loginSessionEnd.ts): nothing is delivered after it. */
  sessionEnds: number;
}

/** Types whose writes can change what a subscriber may read (or whether it may read at all). */
export const accessDefiningTypes = new Set(['Login', 'ProjectMembership', 'AccessPolicy', 'Project']);

/**
 * The subscriber behind a login, evaluated like a signed-in caller (callerResolver.ts) but without a
 * token: undefined once the login is revoked, its membership inactive or gone, or its session's time
 * is up. Cached per login; `invalidate` is called whenever an access-defining resource changes on any
 * process, and entries also expire, so that a change another process failed to announce still takes
 * effect. The session's end is checked on every `get`, cached or not: a cached subscriber never
 * outlives it (one whose end passed is read again, as a refresh may have moved it).
 */
export class SubscriberDirectory {
  private readonly cache = new Map<string, { at: number; subscriber: Promise<Subscriber | undefined> }>();

  constructor(
    private readonly repository: Repository,
    private readonly registry: SearchParameterRegistry,
    private readonly sharedProjectId: string,
    private readonly maxAgeMs = 30_000,
    /** The clock sessions end by (tests move it). */
    readonly now: () => number = Date.now,
  ) {}

  async get(loginId: string): Promise<Subscriber | undefined> {
    const cached = this.cache.get(loginId);
    if (cached && this.now() - cached.at < this.maxAgeMs) {
      const subscriber = await cached.subscriber;
      if (!subscriber || this.now() < subscriber.sessionEnds) return subscriber;
      // Past the end it was read with: read it again once (the login may have been refreshed since).
      if (this.cache.get(loginId) === cached) this.cache.delete(loginId);
    }
    const subscriber = await this.load(loginId);
    return subscriber && this.now() < subscriber.sessionEnds ? subscriber : undefined;
  }

  private load(loginId: string): Promise<Subscriber | undefined> {
    const pending = this.cache.get(loginId);
    if (pending && this.now() - pending.at < this.maxAgeMs) return pending.subscriber;
    const subscriber = this.resolve(loginId).catch((error: unknown) => {
      this.cache.delete(loginId);
      throw error;
    });
    this.cache.set(loginId, { at: this.now(), subscriber });
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
      // The same policy and scopes as the login's calls (its token has no other claims that matter).
      const { access } = await accessForLogin(
        session,
        { sharedProjectId: this.sharedProjectId, registry: this.registry },
        login,
        membership,
        project,
      );
      const client = login.client?.reference?.startsWith('ClientApplication/')
        ? await readClient(session, login.client.reference.slice('ClientApplication/'.length))
        : undefined;
      return { loginId, projectId: project.id, access, sessionEnds: loginSessionEnd(login, client) };
    });
  }
}
