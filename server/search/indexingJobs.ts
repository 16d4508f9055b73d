import type { AsyncJob, ParametersParameter, Reference } from '@medplum/fhirtypes';
import type { Repository, RequestContext } from '../fhir/repository';
import type { SqlExecutor } from '../storage/database';

/**
 * The AsyncJobs of a project's SearchParameter indexing (searchParameterIndexing.ts), as stored: a
 * job is all there is of it (no process keeps anything of it in memory that another would need), so
 * any process can answer how far it is, resume it after a restart, or take it over from a process
 * that died. The job's `output` holds, besides what the status operation shows (`resourceType`,
 * `count`, `error`):
 *
 * - `searchParameter` and `version`: the SearchParameter and the version whose save made the job;
 * - `clean` (any number): a definition (`code`, `type`, `base`…) whose index rows may no longer
 *   apply: the version before the save, whose rows on types the new one does not cover are removed;
 * - `progress`: the step (`step`) and the last resource id done in it (`after`), the resources
 *   indexed (`count`) and the index rows removed (`removed`) so far;
 * - `claim`: the process running it (`by`) and until when its claim holds (`until`) unless renewed.
 *
 * Nothing in a job is trusted to act outside its own project (a project member may write
 * AsyncJobs): its project is the row's, the SearchParameter is looked up in that project, and a
 * `clean` entry only ever removes rows no definition of that project owns (indexCleanup.ts).
 */

/** What a job does: index the project for a saved SearchParameter, or remove a deleted one's rows. */
export type IndexingJobKind = 'reindex' | 'unindex';

/** The `request` of the AsyncJob that indexes a project's resources for one SearchParameter. */
export function indexingRequest(searchParameterId: string): string {
  return `SearchParameter/${searchParameterId}/$reindex`;
}

/** The `request` of the AsyncJob that removes the index rows of a deleted SearchParameter. */
export function unindexingRequest(searchParameterId: string): string {
  return `SearchParameter/${searchParameterId}/$unindex`;
}

/** The requests of indexing jobs, for SQL (`~`) and for parsing: the same text. */
const requestPattern = '^SearchParameter/([A-Za-z0-9.-]{1,64})/\\$(reindex|unindex)$';
const requestExpression = new RegExp(requestPattern);

/** A SearchParameter definition as its index rows were made: code, type (the table) and base types. */
export interface IndexedDefinition {
  code: string;
  type: string;
  bases: string[];
}

export interface IndexingProgress {
  /** The key of the step in progress (searchParameterIndexing.ts's stepKey). */
  step?: string;
  /** The last resource id done in that step. */
  after?: string;
  /** Resources indexed so far. */
  count: number;
  /** Index rows removed so far. */
  removed: number;
}

export interface IndexingClaim {
  /** The indexer (one per process) running the job. */
  by: string;
  /** Milliseconds since the epoch (database clock): past it, another process may take the job over. */
  until: number;
}

export interface IndexingJob {
  id: string;
  /** The project of the job's row (never anything the content says). */
  projectId: string;
  content: AsyncJob;
  kind: IndexingJobKind;
  searchParameterId: string;
  version?: string;
  clean: IndexedDefinition[];
  progress: IndexingProgress;
  claim?: IndexingClaim;
}

/** At most this many `clean` definitions and base types of each are read from a job. */
const maxDefinitions = 20;
const maxBases = 60;

const unfinished = ['accepted', 'active'];

function part(parameter: ParametersParameter | undefined, name: string): ParametersParameter | undefined {
  return parameter?.part?.find((p) => p.name === name);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= 256 ? value : undefined;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}

/** The job a stored AsyncJob row is, or undefined when it is no indexing job. */
export function parseIndexingJob(id: string, projectId: string, content: AsyncJob): IndexingJob | undefined {
  const match = requestExpression.exec(content.request ?? '');
  if (!match) return undefined;
  const parameters = content.output?.parameter ?? [];
  const named = (name: string) => parameters.find((p) => p.name === name);
  const clean: IndexedDefinition[] = [];
  for (const entry of parameters.filter((p) => p.name === 'clean').slice(0, maxDefinitions)) {
    const code = text(part(entry, 'code')?.valueString);
    const type = text(part(entry, 'type')?.valueString) ?? '';
    const bases = (entry.part ?? [])
      .filter((p) => p.name === 'base')
      .map((p) => text(p.valueString))
      .filter((base): base is string => base !== undefined)
      .slice(0, maxBases);
    if (code && bases.length > 0) clean.push({ code, type, bases });
  }
  const progress = named('progress');
  const claim = named('claim');
  const claimedBy = text(part(claim, 'by')?.valueString);
  const claimedUntil = Date.parse(part(claim, 'until')?.valueInstant ?? '');
  return {
    id,
    projectId,
    content,
    kind: match[2] as IndexingJobKind,
    searchParameterId: match[1],
    version: text(named('version')?.valueString),
    clean,
    progress: {
      step: text(part(progress, 'step')?.valueString),
      after: text(part(progress, 'after')?.valueString),
      count: count(part(progress, 'count')?.valueInteger),
      removed: count(part(progress, 'removed')?.valueInteger),
    },
    claim: claimedBy && Number.isFinite(claimedUntil) ? { by: claimedBy, until: claimedUntil } : undefined,
  };
}

/** What a job's output says of itself (its SearchParameter, version and the definitions to clean). */
function identity(
  searchParameterId: string,
  version: string | undefined,
  clean: readonly IndexedDefinition[],
): ParametersParameter[] {
  return [
    { name: 'searchParameter', valueString: `SearchParameter/${searchParameterId}` },
    ...(version ? [{ name: 'version', valueString: version }] : []),
    ...clean.map((definition) => ({
      name: 'clean',
      part: [
        { name: 'code', valueString: definition.code },
        ...(definition.type ? [{ name: 'type', valueString: definition.type }] : []),
        ...definition.bases.map((base) => ({ name: 'base', valueString: base })),
      ],
    })),
  ];
}

/** A new job (status `accepted`: queued until a process claims it). */
export function newIndexingJob(
  kind: IndexingJobKind,
  searchParameterId: string,
  version: string | undefined,
  clean: readonly IndexedDefinition[],
): AsyncJob {
  return {
    resourceType: 'AsyncJob',
    status: 'accepted',
    requestTime: new Date().toISOString(),
    request: kind === 'reindex' ? indexingRequest(searchParameterId) : unindexingRequest(searchParameterId),
    output: { resourceType: 'Parameters', parameter: identity(searchParameterId, version, clean) },
  };
}

export interface JobChanges {
  status: AsyncJob['status'];
  progress: IndexingProgress;
  /** The claim to keep; undefined releases it. */
  claim?: IndexingClaim;
  /** The type being indexed (shown by the status operation). */
  resourceType?: string;
  error?: string;
  transactionTime?: string;
}

/** The job's content after `changes`: what it says of itself stays, the rest is replaced. */
function withChanges(job: IndexingJob, changes: JobChanges): AsyncJob {
  const { progress, claim } = changes;
  const parameters: ParametersParameter[] = [
    ...identity(job.searchParameterId, job.version, job.clean),
    ...(changes.resourceType ? [{ name: 'resourceType', valueString: changes.resourceType }] : []),
    { name: 'count', valueInteger: progress.count },
    ...(progress.removed > 0 ? [{ name: 'removed', valueInteger: progress.removed }] : []),
    ...(changes.error ? [{ name: 'error', valueString: changes.error }] : []),
  ];
  if (unfinished.includes(changes.status)) {
    parameters.push({
      name: 'progress',
      part: [
        ...(progress.step ? [{ name: 'step', valueString: progress.step }] : []),
        ...(progress.after ? [{ name: 'after', valueString: progress.after }] : []),
        { name: 'count', valueInteger: progress.count },
        { name: 'removed', valueInteger: progress.removed },
      ],
    });
  }
  if (claim) {
    parameters.push({
      name: 'claim',
      part: [
        { name: 'by', valueString: claim.by },
        { name: 'until', valueInstant: new Date(claim.until).toISOString() },
      ],
    });
  }
  const { transactionTime: _previousTime, ...rest } = job.content;
  return {
    ...rest,
    status: changes.status,
    ...(changes.transactionTime ? { transactionTime: changes.transactionTime } : {}),
    output: { resourceType: 'Parameters', parameter: parameters },
  };
}

/** Whom the job's versions are written as: the author of its first version (the SearchParameter's). */
function contextOf(job: IndexingJob): RequestContext {
  const author: Reference = job.content.meta?.author ?? { reference: 'system' };
  return { projectId: job.projectId, author };
}

interface JobRow {
  id: string;
  project_id: string;
  content: AsyncJob;
  now_ms: number;
}

const jobColumns = `id, project_id, content, (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms`;

/** Tells whether a claim still holds at `now` (the database's clock). */
export type ClaimHeld = (claim: IndexingClaim, now: number) => boolean;

/**
 * Claims the next job of a project for `owner`: its oldest unfinished indexing job (the jobs of a
 * project run one after another, in the order of their saves, on whichever process), unless
 * another process's claim on it holds. Its row is locked meanwhile, so that of two processes asking
 * at once the second sees the first's claim. Answers the claimed job (status `active`).
 */
export async function claimNextJob(
  repository: Repository,
  projectId: string,
  owner: string,
  leaseMs: number,
  held: ClaimHeld,
): Promise<IndexingJob | undefined> {
  return repository.transaction(async (session) => {
    const rows = await session.tx.query<JobRow>(
      `SELECT ${jobColumns} FROM resources
       WHERE resource_type = 'AsyncJob' AND project_id = $1 AND NOT deleted
         AND content->>'status' = ANY($2::text[]) AND content->>'request' ~ $3
       ORDER BY content->>'requestTime', id LIMIT 1 FOR UPDATE`,
      [projectId, unfinished, requestPattern],
    );
    const row = rows[0];
    if (!row) return undefined;
    const job = parseIndexingJob(row.id, row.project_id, row.content);
    if (!job) return undefined;
    const now = Number(row.now_ms);
    if (job.claim && job.claim.by !== owner && held(job.claim, now)) return undefined;
    const claim = { by: owner, until: now + leaseMs };
    const { resource } = await session.update(
      contextOf(job),
      withChanges(job, { status: 'active', progress: job.progress, claim }),
    );
    return { ...job, content: resource as AsyncJob, claim };
  });
}

/**
 * Writes a claimed job's progress or end, if `owner` still holds it (answers false, writing nothing,
 * when another process took it over or it was closed meanwhile). An unfinished status with a claim
 * renews the claim for `leaseMs`.
 */
export async function writeClaimedJob(
  repository: Repository,
  job: IndexingJob,
  owner: string,
  changes: Omit<JobChanges, 'claim'>,
  options: { leaseMs: number; keepClaim: boolean },
): Promise<boolean> {
  return repository.transaction(async (session) => {
    const rows = await session.tx.query<JobRow>(
      `SELECT ${jobColumns} FROM resources
       WHERE resource_type = 'AsyncJob' AND id = $1 AND project_id = $2 AND NOT deleted FOR UPDATE`,
      [job.id, job.projectId],
    );
    const row = rows[0];
    const stored = row ? parseIndexingJob(row.id, row.project_id, row.content) : undefined;
    if (!stored || stored.claim?.by !== owner || !unfinished.includes(stored.content.status)) return false;
    const claim = options.keepClaim ? { by: owner, until: Number(row.now_ms) + options.leaseMs } : undefined;
    await session.update(contextOf(stored), withChanges(stored, { ...changes, claim }));
    return true;
  });
}

/** The projects (other than the shared one) with indexing jobs not finished: queued, running, or left by a stopped process. */
export async function projectsWithUnfinishedJobs(db: SqlExecutor, sharedProjectId: string): Promise<string[]> {
  const rows = await db.query<{ project_id: string }>(
    `SELECT DISTINCT project_id FROM resources
     WHERE resource_type = 'AsyncJob' AND NOT deleted AND project_id IS NOT NULL AND project_id <> $1
       AND content->>'status' = ANY($2::text[]) AND content->>'request' ~ $3`,
    [sharedProjectId, unfinished, requestPattern],
  );
  return rows.map((row) => row.project_id);
}

/** What `GET SearchParameter/{id}/$index-status` answers (searchParameterIndexStatus). */
export interface IndexingState {
  /** `queued`: saved, its job not yet started; `indexing`; `completed`; `error`; `none`: never indexed on a save. */
  status: 'queued' | 'indexing' | 'completed' | 'error' | 'none';
  job?: AsyncJob;
}

/**
 * Where the indexing of a project's SearchParameter stands, as its last AsyncJob (the one of its
 * last save) says: from the database, so every process answers alike. A job closed because its
 * SearchParameter was deleted (`cancelled`) is an error.
 */
export async function searchParameterIndexStatus(
  tx: SqlExecutor,
  projectId: string,
  searchParameterId: string,
): Promise<IndexingState> {
  // The order of the saves: a job's last_updated moves on with its progress, its requestTime not.
  const rows = await tx.query<{ content: AsyncJob }>(
    `SELECT content FROM resources
     WHERE project_id = $1 AND resource_type = 'AsyncJob' AND NOT deleted AND content->>'request' = $2
     ORDER BY content->>'requestTime' DESC, last_updated DESC LIMIT 1`,
    [projectId, indexingRequest(searchParameterId)],
  );
  const job = rows[0]?.content;
  if (!job) return { status: 'none' };
  const status =
    job.status === 'accepted'
      ? 'queued'
      : job.status === 'active'
        ? 'indexing'
        : job.status === 'completed'
          ? 'completed'
          : 'error';
  return { status, job };
}
