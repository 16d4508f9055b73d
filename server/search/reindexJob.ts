import type { AsyncJob, Resource } from '@medplum/fhirtypes';
import type { Repository, RequestContext } from '../fhir/repository';
import { deleteIndexRows, insertIndexRows } from '../fhir/writeFlush';
import { patientCompartments } from '../fhir/patientCompartment';
import { extractIndexRows } from './indexRows';

const batchSize = 500;

export interface ReindexProgress {
  resourceType: string;
  done: number;
}

/**
 * Recomputes the index rows (and compartments) of every current resource of `resourceTypes`, in
 * batches of 500, each in its own transaction. Versions are not touched: index rows are derived.
 */
export async function reindexResources(
  repository: Repository,
  resourceTypes: readonly string[],
  onProgress: (progress: ReindexProgress) => Promise<void> | void,
): Promise<number> {
  let total = 0;
  for (const resourceType of resourceTypes) {
    let after = '';
    let done = 0;
    for (;;) {
      const batch = await repository.db.query<{ content: Resource; project_id: string | null }>(
        `SELECT content, project_id FROM resources WHERE resource_type = $1 AND NOT deleted AND id > $2 ORDER BY id LIMIT ${batchSize}`,
        [resourceType, after],
      );
      if (batch.length === 0) break;
      await repository.db.transaction(async (tx) => {
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
      });
      after = batch[batch.length - 1].content.id as string;
      done += batch.length;
      total += batch.length;
      await onProgress({ resourceType, done });
    }
  }
  return total;
}

/** Starts a reindex in the background, tracked by an AsyncJob resource that clients poll. */
export async function startReindexJob(
  repository: Repository,
  ctx: RequestContext,
  resourceTypes: readonly string[],
  requestUrl: string,
  log: (error: unknown) => void,
): Promise<AsyncJob> {
  const job = (await repository.create(ctx, {
    resourceType: 'AsyncJob',
    status: 'accepted',
    requestTime: new Date().toISOString(),
    request: requestUrl,
  } as AsyncJob)) as AsyncJob;

  const update = (changes: Partial<AsyncJob>) =>
    repository.transaction(async (session) => {
      const current = (await session.read('AsyncJob', job.id as string)) as AsyncJob;
      await session.update(ctx, { ...current, ...changes });
    });
  const output = (parameters: { name: string; valueString?: string; valueInteger?: number }[]) => ({
    resourceType: 'Parameters' as const,
    parameter: parameters,
  });

  void (async () => {
    try {
      let reported = 0;
      const count = await reindexResources(repository, resourceTypes, async (progress) => {
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
      });
      await update({
        status: 'completed',
        transactionTime: new Date().toISOString(),
        output: output([{ name: 'count', valueInteger: count }]),
      });
    } catch (error) {
      log(error);
      await update({
        status: 'error',
        output: output([{ name: 'error', valueString: (error as Error).message }]),
      }).catch(log);
    }
  })();
  return job;
}
