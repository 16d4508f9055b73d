import type { CommittedWrite, Repository } from '../fhir/repository';
import type { Database, SqlExecutor } from '../storage/database';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import type { Caller } from './callerResolver';

/**
 * Types whose writes can change who a caller is or what it may do: the login itself (revoked,
 * scopes), its membership, project and access policies, its user configuration, its SMART launch.
 */
export const callerDefiningTypes = new Set([
  'Login',
  'ProjectMembership',
  'Project',
  'AccessPolicy',
  'UserConfiguration',
  'SmartAppLaunch',
  'ClientApplication',
]);

/** The channel on which every server process of a database hears that its cached callers are stale. */
export const callerInvalidationChannel = 'hearth_callers';

interface Entry {
  caller: Caller;
  /** The token's `exp` (seconds); the entry is not used once it has passed. */
  expires: number | undefined;
  at: number;
  /** The search parameters the caller's access criteria were compiled with. */
  parameters: SearchParameterRegistry;
  parametersVersion: number;
}

/** What a committed write means for the cached callers. */
interface Invalidation {
  /** Forget everything (a membership, policy or project changed). */
  all?: boolean;
  /** Forget the callers of these logins only (a login was revoked or refreshed). */
  logins?: string[];
}

function invalidationOf(writes: readonly CommittedWrite[]): Invalidation | undefined {
  const logins = new Set<string>();
  for (const write of writes) {
    const type = write.resource.resourceType;
    if (!callerDefiningTypes.has(type)) continue;
    if (type !== 'Login') return { all: true };
    logins.add(write.resource.id as string);
  }
  return logins.size > 0 ? { logins: [...logins] } : undefined;
}

/**
 * Resolved callers by bearer token, so that a request does not read its Login, membership, project
 * and policies and compile its access guard again each time (issue 20: that was most of a read).
 *
 * Never stale: every transaction that writes one of `callerDefiningTypes` sends, in the same
 * transaction, a NOTIFY that every process receives when it commits (so no process can answer the
 * writer's next request with the old caller), and the writing process forgets locally as soon as
 * it commits. A resolution that was under way while an invalidation arrived is not kept
 * (generations), entries last `maxAgeMs` at most (a notification lost with a broken LISTEN
 * connection), a token's expiry is checked on every use, and a change of the project's search
 * parameters (which the access criteria were compiled with) is a miss.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private stopListening: (() => Promise<void>) | undefined;
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly maxAgeMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Wires the invalidations: local commits, and the NOTIFYs of other processes on native PostgreSQL. */
  async start(repository: Repository, db: Database): Promise<void> {
    this.stopWatching = repository.onCommitted((writes) => this.apply(invalidationOf(writes)));
    repository.onBeforeCommit(async (tx, writes) => {
      const invalidation = invalidationOf(writes);
      if (!invalidation || db.kind !== 'postgres') return;
      await notifyInTransaction(tx, invalidation);
    });
    if (db.listen) {
      this.stopListening = await db.listen(callerInvalidationChannel, (payload) => {
        let message: Invalidation = { all: true };
        try {
          message = JSON.parse(payload) as Invalidation;
        } catch {
          // Unreadable: forget everything.
        }
        this.apply(message);
      });
    }
  }

  async stop(): Promise<void> {
    this.stopWatching?.();
    await this.stopListening?.();
    this.entries.clear();
  }

  /** The cached caller of `token`, or the one `resolve` answers (kept unless invalidated meanwhile). */
  async get(
    token: string,
    parametersOf: (caller: Caller) => SearchParameterRegistry,
    resolve: () => Promise<{ caller: Caller; expires: number | undefined }>,
  ): Promise<Caller> {
    const entry = this.entries.get(token);
    if (entry) {
      const parameters = parametersOf(entry.caller);
      const fresh =
        Date.now() - entry.at < this.maxAgeMs &&
        (entry.expires === undefined || entry.expires > Math.floor(Date.now() / 1000)) &&
        parameters === entry.parameters &&
        parameters.version === entry.parametersVersion;
      if (fresh) return entry.caller;
      this.entries.delete(token);
    }
    const generation = this.generation;
    const { caller, expires } = await resolve();
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      const parameters = parametersOf(caller);
      this.entries.set(token, {
        caller,
        expires,
        at: Date.now(),
        parameters,
        parametersVersion: parameters.version,
      });
    }
    return caller;
  }

  private apply(invalidation: Invalidation | undefined): void {
    if (!invalidation) return;
    this.generation++;
    if (invalidation.all || !Array.isArray(invalidation.logins)) {
      this.entries.clear();
      return;
    }
    const logins = new Set(invalidation.logins);
    for (const [token, entry] of this.entries) {
      if (logins.has(entry.caller.login.id as string)) this.entries.delete(token);
    }
  }
}

/** NOTIFY inside the writing transaction: PostgreSQL delivers it to every listener when it commits. */
async function notifyInTransaction(tx: SqlExecutor, invalidation: Invalidation): Promise<void> {
  let payload = JSON.stringify(invalidation);
  // NOTIFY payloads stay under 8000 bytes; many logins at once become "forget everything".
  if (payload.length > 7000) payload = JSON.stringify({ all: true });
  await tx.query('SELECT pg_notify($1, $2)', [callerInvalidationChannel, payload]);
}
