import type { AsyncJob, Resource, SearchParameter } from '@medplum/fhirtypes';
import type { BeforeCommitHook, CommittedWrite, Repository, RequestContext } from '../fhir/repository';
import type { SqlExecutor } from '../storage/database';
import { createReindexJob, runReindexJob } from './reindexJob';

const everyType = new Set(['Resource', 'DomainResource']);

/** The indexer of each repository (for the status operation, reindexRoutes.ts). */
const indexers = new WeakMap<Repository, SearchParameterIndexer>();

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

/** The `request` of the AsyncJob that indexes a project's resources for one SearchParameter. */
export function indexingRequest(searchParameterId: string): string {
  return `SearchParameter/${searchParameterId}/$reindex`;
}

/** What `GET SearchParameter/{id}/$index-status` answers (searchParameterIndexStatus). */
export interface IndexingState {
  /** `queued`: saved, its job not yet started; `indexing`; `completed`; `error`; `none`: never indexed on a save. */
  status: 'queued' | 'indexing' | 'completed' | 'error' | 'none';
  job?: AsyncJob;
}

export interface IndexingOptions {
  /** Resources per batch (each its own transaction). */
  batchSize?: number;
  /** Milliseconds between batches, for the requests waiting for the database. */
  pauseMs?: number;
}

interface Planned {
  projectId: string;
  parameter: SearchParameter;
  /** The types it applied to before this save (their rows may name it and must be recomputed). */
  previousBases: string[];
}

/**
 * Indexes a project's existing resources for a SearchParameter the project saves (created, or its
 * code, type, base, expression, components or targets changed), in the background: one AsyncJob
 * per save, run after the save commits, in batches that yield to requests, over that project's
 * resources of the parameter's base types only. The jobs of one project run one after another.
 * Searches by the parameter answer what is indexed so far; `status` (and the AsyncJob) tell how far
 * it is. A job is not resumed after a restart: saving the SearchParameter again starts it over.
 */
export class SearchParameterIndexer {
  /** Saves found to need indexing before they committed (only a committed one is indexed). */
  private readonly planned = new WeakMap<Resource, Planned>();
  /** SearchParameter ids whose save committed and whose job is not created yet. */
  private readonly queued = new Set<string>();
  /** The last job of each project (the next one waits for it). */
  private readonly chains = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly repository: Repository,
    private readonly sharedProjectId: string,
    private readonly log: (message: string, error: unknown) => void,
    private readonly options: IndexingOptions = {},
  ) {
    indexers.set(repository, this);
  }

  /** Before a save commits: does it change what the project's index rows hold (compared with the registry)? */
  readonly beforeCommit: BeforeCommitHook = async (_tx: SqlExecutor, writes: readonly CommittedWrite[]) => {
    for (const write of writes) {
      if (write.resource.resourceType !== 'SearchParameter') continue;
      const projectId = write.resource.meta?.project ?? write.previous?.meta?.project;
      if (!projectId || projectId === this.sharedProjectId) continue;
      const id = write.resource.id as string;
      const previous = this.repository.registry.projectParameter(projectId, id);
      if (write.operation === 'delete') {
        // Another stored SearchParameter of one of its codes (saved before duplicates were refused)
        // answers for it from now on: the rows were made by this one's expression.
        if (previous) this.planned.set(write.resource, { projectId, parameter: previous, previousBases: [] });
        continue;
      }
      const parameter = write.resource as SearchParameter;
      if (previous && indexedDefinition(previous) === indexedDefinition(parameter)) continue;
      this.planned.set(write.resource, { projectId, parameter, previousBases: (previous?.base ?? []) as string[] });
    }
  };

  /** After a transaction committed (and the registry learnt its SearchParameters): schedules their jobs. */
  readonly committed = (writes: readonly CommittedWrite[]): void => {
    for (const write of writes) {
      const plan = this.planned.get(write.resource);
      if (!plan) continue;
      this.planned.delete(write.resource);
      if (write.operation === 'delete') {
        const code = plan.parameter.code as string;
        const stillDefined = ((plan.parameter.base ?? []) as string[]).some(
          (base) => this.repository.registry.forProject(plan.projectId).get(base, code)?.sourceId !== undefined,
        );
        if (!stillDefined) continue;
      }
      this.schedule(plan, write);
    }
  };

  /** Where a SearchParameter's indexing stands (queued on this process, or as its last AsyncJob says). */
  async status(tx: SqlExecutor, projectId: string, searchParameterId: string): Promise<IndexingState> {
    const rows = await tx.query<{ content: AsyncJob }>(
      `SELECT content FROM resources
       WHERE project_id = $1 AND resource_type = 'AsyncJob' AND NOT deleted AND content->>'request' = $2
       ORDER BY last_updated DESC LIMIT 1`,
      [projectId, indexingRequest(searchParameterId)],
    );
    const job = rows[0]?.content;
    if (this.queued.has(searchParameterId)) return { status: 'queued', job };
    if (!job) return { status: 'none' };
    const status = job.status === 'completed' ? 'completed' : job.status === 'error' ? 'error' : 'indexing';
    return { status, job };
  }

  /** Lets the running batch finish, marks the unfinished jobs stopped, and resolves when they are. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (indexers.get(this.repository) === this) indexers.delete(this.repository);
    await Promise.all(this.chains.values());
  }

  private schedule(plan: Planned, write: CommittedWrite): void {
    if (this.stopping) return;
    const id = write.resource.id as string;
    const ctx: RequestContext = {
      projectId: plan.projectId,
      author: write.resource.meta?.author ?? { reference: 'system' },
    };
    this.queued.add(id);
    const previous = this.chains.get(plan.projectId) ?? Promise.resolve();
    const output = [
      { name: 'searchParameter', valueString: `SearchParameter/${id}` },
      { name: 'version', valueString: write.resource.meta?.versionId },
    ];
    const next = previous.then(async () => {
      try {
        if (this.stopping) return;
        const job = await createReindexJob(this.repository, ctx, indexingRequest(id), output);
        this.queued.delete(id);
        const types = await this.typesOf(plan);
        await runReindexJob(
          this.repository,
          ctx,
          job,
          types,
          (error) => this.log(`indexing for SearchParameter/${id} failed`, error),
          {
            projectId: plan.projectId,
            batchSize: this.options.batchSize ?? 200,
            pause: () => new Promise((resolve) => setTimeout(resolve, this.options.pauseMs ?? 5)),
            stopped: () => this.stopping,
            output,
          },
        );
      } catch (error) {
        this.log(`indexing for SearchParameter/${id} failed`, error);
      } finally {
        this.queued.delete(id);
      }
    });
    this.chains.set(plan.projectId, next);
    // The chain of an idle project is dropped once its last job is done.
    void next.then(() => {
      if (this.chains.get(plan.projectId) === next) this.chains.delete(plan.projectId);
    });
  }

  /** The project's types the parameter applies (or applied) to; for `Resource`, every type the project holds. */
  private async typesOf(plan: Planned): Promise<string[]> {
    const bases = [...new Set([...((plan.parameter.base ?? []) as string[]), ...plan.previousBases])];
    if (!bases.some((base) => everyType.has(base))) return bases.sort();
    const rows = await this.repository.db.query<{ resource_type: string }>(
      'SELECT DISTINCT resource_type FROM resources WHERE project_id = $1 AND NOT deleted ORDER BY 1',
      [plan.projectId],
    );
    return rows.map((row) => row.resource_type);
  }
}
