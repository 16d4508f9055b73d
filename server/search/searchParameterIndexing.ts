import { randomUUID } from 'node:crypto';
import type { AsyncJob, Resource, SearchParameter } from '@medplum/fhirtypes';
import { RepositorySession, type BeforeCommitHook, type CommittedWrite, type Repository } from '../fhir/repository';
import type { Database, SqlExecutor } from '../storage/database';
import { indexRowOwner, lockProjectCode, removeIndexRows } from './indexCleanup';
import {
  claimNextJob,
  newIndexingJob,
  projectsWithUnfinishedJobs,
  searchParameterIndexStatus,
  writeClaimedJob,
  type ClaimHeld,
  type IndexedDefinition,
  type IndexingJob,
  type IndexingProgress,
  type IndexingState,
} from './indexingJobs';
import { reindexResources, ReindexStopped } from './reindexJob';

export { indexingRequest, searchParameterIndexStatus, type IndexingState } from './indexingJobs';

const everyType = new Set(['Resource', 'DomainResource']);

/** The indexer of each repository (searchParameterIndexerOf). */
const indexers = new WeakMap<Repository, SearchParameterIndexer>();

/**
 * The indexers running on each embedded database: PGlite is one process's, so a claim of an indexer
 * not among them was left by a process that stopped (on native PostgreSQL the claim's lease tells).
 */
const liveIndexers = new WeakMap<Database, Set<string>>();

/** The indexer started on this repository (startSearchParameterSync), if any. */
export function searchParameterIndexerOf(repository: Repository): SearchParameterIndexer | undefined {
  return indexers.get(repository);
}

/** What of a SearchParameter decides its index rows: a save that changes none of it needs no reindex. */
function indexedDefinition(parameter: SearchParameter | undefined): string {
  if (!parameter) return '';
  const { code, type, base, expression, component, target } = parameter;
  return JSON.stringify([code, type, base, expression, component, target]);
}

/** The code, type and base types of a stored SearchParameter (none for one without them). */
function definitionsOf(parameter: Resource | undefined): IndexedDefinition[] {
  const { code, type, base } = (parameter ?? {}) as SearchParameter;
  const bases = Array.isArray(base) ? base.filter((b): b is NonNullable<typeof b> => typeof b === 'string') : [];
  return typeof code === 'string' && code && bases.length > 0 ? [{ code, type: type ?? '', bases }] : [];
}

export interface IndexingOptions {
  /** Resources per batch (each its own transaction). */
  batchSize?: number;
  /** Milliseconds between batches, for the requests waiting for the database. */
  pauseMs?: number;
  /**
   * Native PostgreSQL: how long a process's claim on a job holds unless renewed (it is renewed every
   * fifth batch, and at least every third of this); past it, another process takes the job over.
   */
  leaseMs?: number;
  /** How often every process looks for jobs no process runs (left by one that died). */
  sweepMs?: number;
}

/** Thrown into a job's run: the SearchParameter it indexes for was deleted. */
class ParameterDeleted extends Error {}

/** Thrown into a job's run: another process took it over, or it was closed meanwhile. */
class ClaimLost extends Error {}

interface Step {
  /** Orders the steps of a job, and names the one in progress (IndexingProgress.step). */
  key: string;
  kind: 'reindex' | 'clean';
  resourceType: string;
  /** For `clean`: the code whose rows are removed, and the SearchParameter types that wrote them. */
  code?: string;
  types?: string[];
}

/**
 * Indexes a project's existing resources for a SearchParameter the project saves (created, or its
 * code, type, base, expression, components or targets changed), and removes the index rows of one
 * it deletes or moves off a code or base type, in the background.
 *
 * The save's own transaction stores an AsyncJob for it (`queued` from then on, on every process:
 * indexingJobs.ts), so no save is ever left unindexed by a stop or a crash. After the save commits,
 * the saving process claims the project's oldest unfinished job (the jobs of a project run one after
 * another, in the order of the saves), runs it in batches that yield to requests, over that
 * project's resources of the parameter's base types only, and claims the next one. A job records
 * how far it is (its step and the last resource id done, every fifth batch and when stopped), so one
 * stopped with the server is resumed from there on the next start, and one whose process died is
 * taken over by any process once its claim's lease ran out (every process looks every `sweepMs`).
 * A claim is taken under the job row's lock: of two processes starting together, one runs it.
 *
 * A job's steps: index each base type (every type the project holds for `Resource`) with the
 * project's parameters as stored; then, for each definition the parameter had before the save (all
 * it ever had, after a delete) on a type it no longer applies to, remove the project's rows of that
 * code on that type (indexCleanup.ts), unless something else defines the code there: a base
 * definition (the rows are its: left alone), or another of the project's SearchParameters (saved
 * before duplicates were refused: the rows were made by this one's expression, so the type is
 * indexed again). A job whose SearchParameter was deleted meanwhile is closed as `cancelled`; the
 * deletion's own job removes its rows.
 */
export class SearchParameterIndexer {
  /** Names this indexer's claims. */
  readonly id = randomUUID();
  /** Saves whose transaction stored a job: their project is run once they commit. */
  private readonly planned = new WeakSet<Resource>();
  /** The projects this indexer is running jobs of. */
  private readonly running = new Map<string, Promise<void>>();
  /** Projects to look at again once their current run ends (a job was saved meanwhile). */
  private readonly again = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private started = false;
  private stopping = false;
  private readonly batchSize: number;
  private readonly pauseMs: number;
  private readonly leaseMs: number;
  private readonly sweepMs: number;

  constructor(
    private readonly repository: Repository,
    private readonly sharedProjectId: string,
    private readonly log: (message: string, error: unknown) => void,
    options: IndexingOptions = {},
    /** Reloads a project's SearchParameters from the database into the registry (searchParameterSync.ts). */
    private readonly refresh: (projectId: string) => Promise<void> = async () => undefined,
  ) {
    this.batchSize = options.batchSize ?? 200;
    this.pauseMs = options.pauseMs ?? 5;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.sweepMs = options.sweepMs ?? Math.max(50, Math.round(this.leaseMs / 2));
    indexers.set(repository, this);
  }

  /**
   * Before a save commits, in its transaction: a SearchParameter created, deleted, or changed in
   * what its index rows hold (compared with its stored version before) gets its job.
   */
  readonly beforeCommit: BeforeCommitHook = async (tx: SqlExecutor, writes: readonly CommittedWrite[]) => {
    for (const write of writes) {
      if (write.resource.resourceType !== 'SearchParameter') continue;
      const projectId = write.resource.meta?.project ?? write.previous?.meta?.project;
      if (!projectId || projectId === this.sharedProjectId) continue;
      const id = write.resource.id as string;
      const version = write.resource.meta?.versionId;
      let job: AsyncJob;
      if (write.operation === 'delete') {
        job = newIndexingJob('unindex', id, version, definitionsOf(write.previous));
      } else {
        const parameter = write.resource as SearchParameter;
        const previous = await previousVersion(tx, projectId, parameter);
        if (previous && indexedDefinition(previous) === indexedDefinition(parameter)) continue;
        job = newIndexingJob('reindex', id, version, definitionsOf(previous));
      }
      const session = new RepositorySession(tx, this.repository.registry.forProject(projectId));
      await session.create({ projectId, author: write.resource.meta?.author ?? { reference: 'system' } }, job);
      await session.flush();
      this.planned.add(write.resource);
    }
  };

  /** After a transaction committed (and the registry learnt its SearchParameters): runs their projects' jobs. */
  readonly committed = (writes: readonly CommittedWrite[]): void => {
    const projects = new Set<string>();
    for (const write of writes) {
      if (!this.planned.delete(write.resource)) continue;
      const projectId = write.resource.meta?.project ?? write.previous?.meta?.project;
      if (projectId) projects.add(projectId);
    }
    for (const projectId of projects) this.kick(projectId);
  };

  /** Where a SearchParameter's indexing stands (from the database: searchParameterIndexStatus). */
  status(tx: SqlExecutor, projectId: string, searchParameterId: string): Promise<IndexingState> {
    return searchParameterIndexStatus(tx, projectId, searchParameterId);
  }

  /** Resumes the unfinished jobs (of a stop, a crash, or another process), now and every `sweepMs`. */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    const live = liveIndexers.get(this.repository.db) ?? new Set<string>();
    live.add(this.id);
    liveIndexers.set(this.repository.db, live);
    const sweep = () => {
      if (this.stopping || this.sweeping) return;
      this.sweeping = this.sweep()
        .catch((error: unknown) => this.log('looking for unfinished indexing jobs failed', error))
        .finally(() => {
          this.sweeping = undefined;
        });
    };
    sweep();
    this.timer = setInterval(sweep, this.sweepMs);
    this.timer.unref();
  }

  /** Lets each running job finish its batch and record how far it is (the next start resumes it), then resolves. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    if (indexers.get(this.repository) === this) indexers.delete(this.repository);
    await this.sweeping;
    await Promise.all(this.running.values());
    liveIndexers.get(this.repository.db)?.delete(this.id);
  }

  private async sweep(): Promise<void> {
    const projects = await projectsWithUnfinishedJobs(this.repository.db, this.sharedProjectId);
    for (const projectId of projects) this.kick(projectId);
  }

  /** Is another indexer's claim still good: on PGlite while that indexer runs, on PostgreSQL until its lease ends. */
  private readonly held: ClaimHeld = (claim, now) =>
    this.repository.db.kind === 'pglite'
      ? (liveIndexers.get(this.repository.db)?.has(claim.by) ?? false)
      : claim.until > now;

  /** Runs the project's jobs one after another on this process, unless it runs them already. */
  private kick(projectId: string): void {
    if (this.stopping) return;
    if (this.running.has(projectId)) {
      this.again.add(projectId);
      return;
    }
    const run = this.runProject(projectId)
      .catch((error: unknown) => this.log(`indexing jobs of project ${projectId} failed`, error))
      .finally(() => {
        this.running.delete(projectId);
        if (this.again.delete(projectId)) this.kick(projectId);
      });
    this.running.set(projectId, run);
  }

  private async runProject(projectId: string): Promise<void> {
    while (!this.stopping) {
      const job = await claimNextJob(this.repository, projectId, this.id, this.leaseMs, this.held);
      if (!job) return;
      await this.runJob(job);
    }
  }

  private async runJob(job: IndexingJob): Promise<void> {
    const progress: IndexingProgress = { ...job.progress };
    let resourceType: string | undefined;
    let batches = 0;
    let written = Date.now();
    const write = async (changes: { status: AsyncJob['status']; error?: string; transactionTime?: string }) => {
      const unfinished = changes.status === 'active';
      const kept = await writeClaimedJob(
        this.repository,
        job,
        this.id,
        { ...changes, progress: { ...progress }, resourceType: unfinished ? resourceType : undefined },
        { leaseMs: this.leaseMs, keepClaim: unfinished && !this.stopping },
      );
      if (!kept) throw new ClaimLost();
      written = Date.now();
    };
    const afterBatch = async () => {
      batches++;
      if (batches % 5 === 0 || Date.now() - written >= this.leaseMs / 3) {
        if (job.kind === 'reindex' && !(await this.parameterOf(job))) throw new ParameterDeleted();
        await write({ status: 'active' });
      }
      await this.pause();
    };
    try {
      await this.refresh(job.projectId);
      const parameter = job.kind === 'reindex' ? await this.parameterOf(job) : undefined;
      if (job.kind === 'reindex' && !parameter) throw new ParameterDeleted();
      for (const step of await this.stepsOf(job, parameter)) {
        if (progress.step !== undefined && step.key < progress.step) continue;
        const after = step.key === progress.step ? progress.after : undefined;
        progress.step = step.key;
        progress.after = after;
        resourceType = step.resourceType;
        if (step.kind === 'reindex') await this.reindex(job, step.resourceType, after, progress, afterBatch);
        else await this.clean(job, step, after, progress, afterBatch);
      }
      progress.step = undefined;
      progress.after = undefined;
      await write({ status: 'completed', transactionTime: new Date().toISOString() });
    } catch (error) {
      await this.ended(job, error, write);
    }
  }

  /** How a run that did not complete ends: released (stopped), left (taken over), cancelled or failed. */
  private async ended(
    job: IndexingJob,
    error: unknown,
    write: (changes: { status: AsyncJob['status']; error?: string }) => Promise<void>,
  ): Promise<void> {
    const what = `indexing for SearchParameter/${job.searchParameterId}`;
    if (error instanceof ClaimLost) return;
    try {
      if (error instanceof ReindexStopped) {
        // Unclaimed, with its progress: resumed by the next start (or another process) from there.
        await write({ status: 'active' });
      } else if (error instanceof ParameterDeleted) {
        await write({
          status: 'cancelled',
          error: `SearchParameter/${job.searchParameterId} was deleted before its indexing finished; the job is closed`,
        });
      } else {
        this.log(`${what} failed`, error);
        await write({ status: 'error', error: error instanceof Error ? error.message : String(error) });
      }
    } catch (failure) {
      if (!(failure instanceof ClaimLost)) this.log(`recording the end of ${what} failed`, failure);
    }
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.pauseMs));
  }

  /** The job's SearchParameter as stored now, in the job's project (undefined once deleted). */
  private async parameterOf(job: IndexingJob): Promise<SearchParameter | undefined> {
    const rows = await this.repository.db.query<{ content: SearchParameter }>(
      `SELECT content FROM resources
       WHERE resource_type = 'SearchParameter' AND id = $1 AND project_id = $2 AND NOT deleted`,
      [job.searchParameterId, job.projectId],
    );
    return rows[0]?.content;
  }

  /** Every definition a deleted SearchParameter of the project ever had (its history, in its project). */
  private async historicDefinitions(job: IndexingJob): Promise<IndexedDefinition[]> {
    const rows = await this.repository.db.query<{ content: Resource }>(
      `SELECT DISTINCT jsonb_build_object('code', content->'code', 'type', content->'type', 'base', content->'base') AS content
       FROM resource_history
       WHERE resource_type = 'SearchParameter' AND id = $1 AND project_id = $2 AND operation <> 'delete'
       LIMIT 50`,
      [job.searchParameterId, job.projectId],
    );
    return rows.flatMap((row) => definitionsOf(row.content));
  }

  /**
   * The job's steps, in order: index each type the parameter applies to; then, for each definition
   * to clean, each type it applied to that is not indexed again (which rewrites all of a resource's
   * rows), remove its code's rows there.
   */
  private async stepsOf(job: IndexingJob, parameter: SearchParameter | undefined): Promise<Step[]> {
    let projectTypes: string[] | undefined;
    const typesOf = async (bases: readonly string[]): Promise<string[]> => {
      if (!bases.some((base) => everyType.has(base))) return [...new Set(bases)];
      projectTypes ??= (
        await this.repository.db.query<{ resource_type: string }>(
          'SELECT DISTINCT resource_type FROM resources WHERE project_id = $1 AND NOT deleted ORDER BY 1',
          [job.projectId],
        )
      ).map((row) => row.resource_type);
      return projectTypes;
    };
    const indexed = new Set(parameter ? await typesOf(definitionsOf(parameter)[0]?.bases ?? []) : []);
    const steps = new Map<string, Step>();
    for (const resourceType of indexed) {
      steps.set(`1|${resourceType}`, { key: `1|${resourceType}`, kind: 'reindex', resourceType });
    }
    const definitions = [...job.clean, ...(job.kind === 'unindex' ? await this.historicDefinitions(job) : [])];
    for (const definition of definitions) {
      for (const resourceType of await typesOf(definition.bases)) {
        if (indexed.has(resourceType)) continue;
        const key = `2|${definition.code}|${resourceType}`;
        const step = steps.get(key) ?? { key, kind: 'clean', resourceType, code: definition.code, types: [] };
        if (!step.types?.includes(definition.type)) step.types?.push(definition.type);
        steps.set(key, step);
      }
    }
    return [...steps.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Indexes the project's resources of one type again (from `after`) with its parameters as stored. */
  private async reindex(
    job: IndexingJob,
    resourceType: string,
    after: string | undefined,
    progress: IndexingProgress,
    afterBatch: () => Promise<void>,
  ): Promise<void> {
    await reindexResources(
      this.repository,
      [resourceType],
      async (batch) => {
        progress.after = batch.after;
        progress.count += batch.batch;
        await afterBatch();
      },
      { projectId: job.projectId, batchSize: this.batchSize, stopped: () => this.stopping, after },
    );
  }

  /** Removes the project's rows of a code on one type that nothing defines there any more. */
  private async clean(
    job: IndexingJob,
    step: Step,
    after: string | undefined,
    progress: IndexingProgress,
    afterBatch: () => Promise<void>,
  ): Promise<void> {
    const code = step.code as string;
    const registry = this.repository.registry;
    const owner = await this.repository.db.transaction(async (tx) => {
      await lockProjectCode(tx, job.projectId, code);
      return indexRowOwner(tx, registry, job.projectId, step.resourceType, code);
    });
    // The base definition's rows, or the parameter's own (its indexing covers them): not this job's.
    if (owner === 'base' || owner === job.searchParameterId) return;
    if (owner !== undefined) {
      // Another of the project's SearchParameters of the code (saved before duplicates were refused)
      // answers for it now: the rows were made by this one's expression.
      await this.reindex(job, step.resourceType, after, progress, afterBatch);
      return;
    }
    const ended = await removeIndexRows(this.repository.db, registry, {
      projectId: job.projectId,
      resourceType: step.resourceType,
      code,
      types: step.types ?? [],
      batchSize: this.batchSize,
      after,
      stopped: () => this.stopping,
      onBatch: async (batch) => {
        progress.after = batch.after;
        progress.removed += batch.removed;
        await afterBatch();
      },
    });
    if (ended === 'stopped') throw new ReindexStopped();
  }
}

/** The version of a SearchParameter stored before `parameter` (undefined for a new or re-created one). */
async function previousVersion(
  tx: SqlExecutor,
  projectId: string,
  parameter: SearchParameter,
): Promise<SearchParameter | undefined> {
  const rows = await tx.query<{ operation: string; content: SearchParameter }>(
    `SELECT operation, content FROM resource_history
     WHERE resource_type = 'SearchParameter' AND id = $1 AND project_id = $2 AND version_id <> $3
       AND last_updated <= $4
     ORDER BY last_updated DESC, version_id DESC LIMIT 1`,
    [parameter.id, projectId, parameter.meta?.versionId, parameter.meta?.lastUpdated],
  );
  const row = rows[0];
  return row && row.operation !== 'delete' ? row.content : undefined;
}
