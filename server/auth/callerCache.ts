import { randomUUID } from 'node:crypto';
import type { CommittedWrite, Repository } from '../fhir/repository';
import type { ReadPrecondition } from '../fhir/readPrecondition';
import type { SqlExecutor } from '../storage/database';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import type { Caller } from './callerResolver';

/**
 * Types whose writes can change what a signed-in caller may do, besides its Login (whose own
 * version is checked on every use): its membership, project and access policies, its user
 * configuration, its SMART launch, its client.
 */
export const callerDefiningTypes = new Set([
  'ProjectMembership',
  'Project',
  'AccessPolicy',
  'UserConfiguration',
  'SmartAppLaunch',
  'ClientApplication',
]);

/** The server_state key of the epoch that every write of a `callerDefiningTypes` resource changes. */
const epochKey = 'callers-epoch';

interface Stamp {
  /** The epoch when the caller was resolved (null before any such write). */
  epoch: string | null;
  /** The Login's version when the caller was resolved (null: no such Login). */
  loginVersion: string | null;
}

interface Entry extends Stamp {
  caller: Caller;
  /** The token's `exp` (seconds); the entry is not used once it has passed. */
  expires: number | undefined;
  at: number;
  /** The search parameters the caller's access criteria were compiled with. */
  parameters: SearchParameterRegistry;
  parametersVersion: number;
}

/** The callers epoch and a Login's version, as select-list items; `param(0)` is the epoch's key, `param(1)` the Login's id. */
function stampColumns(param: (index: number) => string): string {
  return `(SELECT value #>> '{}' FROM server_state WHERE key = ${param(0)}) AS epoch,
          (SELECT version_id FROM resources WHERE resource_type = 'Login' AND id = ${param(1)}) AS "loginVersion"`;
}

function changesCallers(writes: readonly CommittedWrite[]): boolean {
  return writes.some((write) => callerDefiningTypes.has(write.resource.resourceType));
}

/**
 * Resolved callers by bearer token, so that a request does not read its Login, membership, project
 * and policies and compile its access guard again each time (issue 20: that was most of a read).
 *
 * Never stale, on any process: each use asks the database, in one small query, for the Login's
 * current version and the callers epoch, and resolves again when either changed. Every transaction
 * that writes a membership, project, policy, user configuration, launch or client changes the
 * epoch in that same transaction, so the change and the new epoch become visible together: a
 * Login revoked or a membership switched off on one process is in force for the next request on
 * every other. (A LISTEN/NOTIFY message arrives a moment after the commit, and under load a
 * request came in between: clusterFanOut.native.test.ts caught it.) Entries also last `maxAgeMs`
 * at most, a token's expiry is checked on every use, and a change of the project's search
 * parameters (the access criteria were compiled with them) is a miss.
 */
export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private stopWatching: (() => void) | undefined;

  constructor(
    private readonly db: SqlExecutor,
    private readonly maxAgeMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  /** Changes the epoch inside every transaction that writes a caller-defining resource. */
  start(repository: Repository): void {
    this.stopWatching = repository.onBeforeCommit(async (tx, writes) => {
      if (!changesCallers(writes)) return;
      await tx.query(
        'INSERT INTO server_state (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
        [epochKey, JSON.stringify(randomUUID())],
      );
    });
  }

  stop(): void {
    this.stopWatching?.();
    this.entries.clear();
  }

  /** The Login's version and the epoch as committed now: one round trip. */
  private async stamp(loginId: string | undefined): Promise<Stamp> {
    const rows = await this.db.query<Stamp>(`SELECT ${stampColumns((i) => `$${i + 1}`)}`, [epochKey, loginId ?? ''], {
      prepareAs: 'caller_stamp',
    });
    return { epoch: rows[0]?.epoch ?? null, loginVersion: rows[0]?.loginVersion ?? null };
  }

  /** The entry of `token` if it may be used once its stamp is checked (age, token expiry, search parameters). */
  private usable(token: string, parametersOf: (caller: Caller) => SearchParameterRegistry): Entry | undefined {
    const entry = this.entries.get(token);
    const now = Date.now();
    if (
      !entry ||
      now - entry.at >= this.maxAgeMs ||
      (entry.expires !== undefined && entry.expires <= Math.floor(now / 1000))
    ) {
      return undefined;
    }
    const parameters = parametersOf(entry.caller);
    return parameters === entry.parameters && parameters.version === entry.parametersVersion ? entry : undefined;
  }

  /**
   * For a read by id: the cached caller of `token`, not yet checked, and the check as a precondition
   * of the read's own statement (fhir/readPrecondition.ts), which spares the stamp its round trip.
   * The read's answer is used only if the stamp held; if it did not, the entry is dropped and the
   * caller must be resolved again (`get`). Undefined when there is no usable entry.
   */
  peek(
    token: string,
    parametersOf: (caller: Caller) => SearchParameterRegistry,
  ): { caller: Caller; precondition: ReadPrecondition } | undefined {
    const entry = this.usable(token, parametersOf);
    if (!entry) return undefined;
    // An entry is kept only when its caller's Login is the one the token names.
    const loginId = entry.caller.login.id;
    return {
      caller: entry.caller,
      precondition: {
        name: 'caller_stamp',
        columns: stampColumns,
        params: [epochKey, loginId ?? ''],
        holds: (row) => {
          const held = row.epoch === entry.epoch && row.loginVersion === entry.loginVersion;
          if (!held && this.entries.get(token) === entry) this.entries.delete(token);
          return held;
        },
      },
    };
  }

  /**
   * The caller of `token`: the cached one while its Login and the epoch are unchanged, else the one
   * `resolve` answers (which verifies the token: `loginIdOf`, read from the token without checking
   * its signature, only names the Login whose version is compared).
   */
  async get(
    token: string,
    /** The Login the token names, read without checking its signature (only needed on a miss). */
    loginIdOf: () => string | undefined,
    parametersOf: (caller: Caller) => SearchParameterRegistry,
    resolve: () => Promise<{ caller: Caller; expires: number | undefined }>,
  ): Promise<Caller> {
    const entry = this.usable(token, parametersOf);
    if (entry) {
      // An entry is kept only when its caller's Login is the one the token names.
      const current = await this.stamp(entry.caller.login.id);
      if (current.epoch === entry.epoch && current.loginVersion === entry.loginVersion) return entry.caller;
    }
    const now = Date.now();
    this.entries.delete(token);
    const loginId = loginIdOf();
    // Stamped before resolving: whatever committed before the stamp, the resolution sees; whatever
    // commits after it changes the stamp, so the entry misses next time.
    const stamp = await this.stamp(loginId);
    const { caller, expires } = await resolve();
    if (caller.login.id === loginId) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      const parameters = parametersOf(caller);
      this.entries.set(token, {
        ...stamp,
        caller,
        expires,
        at: now,
        parameters,
        parametersVersion: parameters.version,
      });
    }
    return caller;
  }
}
