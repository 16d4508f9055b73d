import type { SearchParameter } from '@medplum/fhirtypes';
import type { Repository } from '../fhir/repository';
import { acquireClusterBus } from '../realtime';
import type { Database } from '../storage/database';
import type { SearchParameterRegistry } from './searchParameterRegistry';
import { searchParameterDuplicatesHook } from './searchParameterDuplicates';
import { SearchParameterIndexer, type IndexingOptions } from './searchParameterIndexing';

/** The cluster-bus topic: "the SearchParameters of this project changed, reload them". */
const topic = 'search-parameters';

/**
 * Keeps the project SearchParameters of this process's registry in step with the database: all
 * of them are loaded at start-up; a committed change takes effect here at once (Repository) and is
 * announced on the cluster bus, on which every other process reloads that project's parameters
 * from the database. A local commit reloads too, so that a reload answered with older rows can
 * never win over a newer one (only the latest reload of a project is applied).
 *
 * Writes of a project's SearchParameters are also checked before they commit (a code another of
 * the project's SearchParameters defines for one of its base types is refused:
 * searchParameterDuplicates.ts), and a saved one has the project's existing resources indexed for
 * it in the background (searchParameterIndexing.ts), and one deleted has its index rows removed; the
 * jobs left unfinished by a stop, a crash or another process are resumed from here on.
 */
export async function startSearchParameterSync(
  repository: Repository,
  db: Database,
  registry: SearchParameterRegistry,
  sharedProjectId: string,
  log: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
  indexing: IndexingOptions = {},
): Promise<() => Promise<void>> {
  const rows = await db.query<{ content: SearchParameter; project_id: string }>(
    `SELECT content, project_id FROM resources
     WHERE resource_type = 'SearchParameter' AND NOT deleted AND project_id IS NOT NULL AND project_id <> $1`,
    [sharedProjectId],
  );
  const byProject = new Map<string, SearchParameter[]>();
  for (const row of rows) byProject.set(row.project_id, [...(byProject.get(row.project_id) ?? []), row.content]);
  for (const [projectId, parameters] of byProject) registry.replaceProjectParameters(projectId, parameters);

  const latest = new Map<string, number>();
  let sequence = 0;
  const reload = async (projectId: string) => {
    const mine = ++sequence;
    latest.set(projectId, mine);
    const stored = await db.query<{ content: SearchParameter }>(
      `SELECT content FROM resources WHERE resource_type = 'SearchParameter' AND NOT deleted AND project_id = $1`,
      [projectId],
    );
    if (latest.get(projectId) !== mine) return;
    latest.delete(projectId);
    registry.replaceProjectParameters(
      projectId,
      stored.map((row) => row.content),
    );
  };

  const stopDuplicateCheck = repository.onBeforeCommit(searchParameterDuplicatesHook(sharedProjectId));
  // A job runs with the project's SearchParameters as stored: reloaded first (one saved on another
  // process may not have reached this one's registry yet).
  const indexer = new SearchParameterIndexer(repository, sharedProjectId, log, indexing, reload);
  const stopPlanning = repository.onBeforeCommit(indexer.beforeCommit);
  const stopIndexing = repository.onCommitted(indexer.committed);

  const { bus, release } = await acquireClusterBus(db);
  const stopListening = bus.on(topic, (message) => {
    const projectId = message.projectId;
    if (typeof projectId !== 'string' || projectId === sharedProjectId) return;
    reload(projectId).catch((error: unknown) => log(`reloading the SearchParameters of ${projectId} failed`, error));
  });
  const stopWatching = repository.onCommitted((writes) => {
    const projects = new Set<string>();
    for (const write of writes) {
      if (write.resource.resourceType !== 'SearchParameter') continue;
      const projectId = write.resource.meta?.project ?? write.previous?.meta?.project;
      if (projectId && projectId !== sharedProjectId) projects.add(projectId);
    }
    for (const projectId of projects) {
      reload(projectId).catch((error: unknown) => log(`reloading the SearchParameters of ${projectId} failed`, error));
      bus
        .publish(topic, { projectId })
        .catch((error: unknown) => log(`announcing the SearchParameters of ${projectId} failed`, error));
    }
  });
  // The indexing jobs a stop or a crash left unfinished (of this process's last run or of another's).
  indexer.start();
  return async () => {
    stopWatching();
    stopListening();
    stopDuplicateCheck();
    stopPlanning();
    stopIndexing();
    await indexer.stop();
    await release();
  };
}
