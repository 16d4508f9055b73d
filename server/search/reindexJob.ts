import type { AsyncJob, Resource } from '@medplum/fhirtypes';
import type { Repository, RequestContext } from '../fhir/repository';
import { deleteIndexRows, insertIndexRows } from '../fhir/writeFlush';
import { patientCompartments } from '../fhir/patientCompartment';
import { extractIndexRows } from './indexRows';

const defaultBatchSize = 500;

export interface ReindexProgress {
  resourceType: string;
  /** Resources of `resourceType` done so far (by this call). */
  done: number;
  /** Resources in the batch just done. */
  batch: number;
  /** The id of the batch's last resource: a reindex resumed with `after` starts past it. */
  after: string;
}

export interface ReindexOptions {
  /** Only this project's resources (a project's own SearchParameter saved: searchParameterIndexing.ts). */
  projectId?: string;
  /** Resources per batch (each in its own transaction); 500 by default. */
  batchSize?: number;
  /** Awaited between batches: lets the requests waiting for the database go first. */
  pause?: () => Promise<void>;
  /** Asked between batches: true stops the reindex (ReindexStopped) with what is done kept. */
  stopped?: () => boolean;
  /** Resumes the first of `resourceTypes` past this id (ReindexProgress.after of an earlier run). */
  after?: string;
}

/** Thrown by `reindexResources` when `options.stopped` answered true (the server is stopping). */
export class ReindexStopped extends Error {
  constructor() {
    super('Stopped with the server before it finished');
  }
}

/**
 * Recomputes the index rows (and compartments) of every current resource of `resourceTypes` (of
 * one project with `options.projectId`), in batches, each in its own transaction, where the batch's
 * rows are read and locked: a resource written meanwhile is indexed from what was written. Versions
 * are not touched: index rows are derived.
 */
export async function reindexResources(
  repository: Repository,
  resourceTypes: readonly string[],
  onProgress: (progress: ReindexProgress) => Promise<void> | void,
  options: ReindexOptions = {},
): Promise<number> {
  const batchSize = options.batchSize ?? defaultBatchSize;
  const projectFilter = options.projectId === undefined ? '' : ' AND project_id = $3';
  let total = 0;
  for (const [index, resourceType] of resourceTypes.entries()) {
    let after = index === 0 ? (options.after ?? '') : '';
    let done = 0;
    for (;;) {
      if (options.stopped?.()) throw new ReindexStopped();
      const count = await repository.db.transaction(async (tx) => {
        const batch = await tx.query<{ content: Resource; project_id: string | null }>(
          `SELECT content, project_id FROM resources
           WHERE resource_type = $1 AND NOT deleted AND id > $2${projectFilter}
           ORDER BY id LIMIT ${batchSize} FOR UPDATE`,
          options.projectId === undefined ? [resourceType, after] : [resourceType, after, options.projectId],
        );
        if (batch.length === 0) return 0;
        const items = batch.map(({ content, project_id: projectId }) => {
          // Each resource with the parameters of its own project (the base ones and the project's).
          const parameters = repository.registry.forProject(projectId);
          const rows = extractIndexRows(
            content as unknown as Record<string, unknown>,
            parameters.forType(resourceType),
            (url) => parameters.typeOfUrl(url),
          );
          return {
            resourceType,
            id: content.id as string,
            rows,
            compartments: patientCompartments(resourceType, content.id as string, rows.reference),
          };
        });
        await deleteIndexRows(tx, items);
        await insertIndexRows(tx, items);
        await tx.query(
          `UPDATE resources r SET compartments = ARRAY(SELECT jsonb_array_elements_text(k.compartments))
           FROM jsonb_to_recordset($1::jsonb) AS k(id text, compartments jsonb)
           WHERE r.resource_type = $2 AND r.id = k.id`,
          [JSON.stringify(items.map((i) => ({ id: i.id, compartments: i.compartments }))), resourceType],
        );
        after = items[items.length - 1].id;
        return items.length;
      });
      if (count === 0) break;
      done += count;
      total += count;
      await onProgress({ resourceType, done, batch: count, after });
      await options.pause?.();
    }
  }
  return total;
}

type OutputParameter = { name: string; valueString?: string; valueInteger?: number };

export interface ReindexJobOptions extends ReindexOptions {
  /** Parameters added to the job's output at every step (what the job is for). */
  output?: OutputParameter[];
}

/** Creates the AsyncJob resource (status `accepted`) a reindex reports to; `runReindexJob` runs it. */
export async function createReindexJob(
  repository: Repository,
  ctx: RequestContext,
  requestUrl: string,
  output: OutputParameter[] = [],
): Promise<AsyncJob> {
  return (await repository.create(ctx, {
    resourceType: 'AsyncJob',
    status: 'accepted',
    requestTime: new Date().toISOString(),
    request: requestUrl,
    ...(output.length > 0 ? { output: { resourceType: 'Parameters', parameter: output } } : {}),
  } as AsyncJob)) as AsyncJob;
}

/**
 * Runs a reindex and reports it on its AsyncJob: `active` with the type and count so far (every
 * fifth batch), then `completed` with the count, or `error` with the message. Never rejects.
 */
export async function runReindexJob(
  repository: Repository,
  ctx: RequestContext,
  job: AsyncJob,
  resourceTypes: readonly string[],
  log: (error: unknown) => void,
  options: ReindexJobOptions = {},
): Promise<void> {
  const update = (changes: Partial<AsyncJob>) =>
    repository.transaction(async (session) => {
      const current = (await session.read('AsyncJob', job.id as string)) as AsyncJob;
      await session.update(ctx, { ...current, ...changes });
    });
  const output = (parameters: OutputParameter[]) => ({
    resourceType: 'Parameters' as const,
    parameter: [...(options.output ?? []), ...parameters],
  });
  try {
    let reported = 0;
    const count = await reindexResources(
      repository,
      resourceTypes,
      async (progress) => {
        reported++;
        // Every batch would be a lot of versions on a big database: report every fifth.
        if (reported % 5 === 1) {
          await update({
            status: 'active',
            output: output([
              { name: 'resourceType', valueString: progress.resourceType },
              { name: 'count', valueInteger: progress.done },
            ]),
          });
        }
      },
      options,
    );
    await update({
      status: 'completed',
      transactionTime: new Date().toISOString(),
      output: output([{ name: 'count', valueInteger: count }]),
    });
  } catch (error) {
    if (!(error instanceof ReindexStopped)) log(error);
    await update({
      status: 'error',
      output: output([{ name: 'error', valueString: (error as Error).message }]),
    }).catch(log);
  }
}

/** Starts a reindex in the background, tracked by an AsyncJob resource that clients poll. */
export async function startReindexJob(
  repository: Repository,
  ctx: RequestContext,
  resourceTypes: readonly string[],
  requestUrl: string,
  log: (error: unknown) => void,
): Promise<AsyncJob> {
  const job = await createReindexJob(repository, ctx, requestUrl);
  void runReindexJob(repository, ctx, job, resourceTypes, log);
  return job;
}
