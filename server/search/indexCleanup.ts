import { arrayLiteral } from '../storage/arrayLiteral';
import type { Database, SqlExecutor } from '../storage/database';
import type { SearchParameterRegistry } from './searchParameterRegistry';

/**
 * Removing the index rows of a project's SearchParameter that no longer applies (deleted, or moved
 * to another code or off a base type): searchParameterIndexing.ts runs it in the background.
 *
 * Index rows are keyed by resource (resource_type, resource_id) and code only (storage/migrations.ts):
 * they do not say which SearchParameter made them, nor which project their resource belongs to. So
 * the rows removed are those of `code` of the project's own resources of one type (found through the
 * resources table, by project), and only while nothing that project's searches use defines that code
 * for that type: not a base definition (its rows are every project's), not another of the project's
 * stored SearchParameters (`indexRowOwner`). That is checked again in every batch's transaction under
 * the lock a save of a SearchParameter of that code takes (searchParameterDuplicates.ts), so a
 * SearchParameter of the code saved meanwhile stops the removal before its rows could be touched.
 */

/** The table of each SearchParameter type's rows (`special` has none). */
const tablesByType: Record<string, string[]> = {
  token: ['search_token'],
  string: ['search_string'],
  date: ['search_date'],
  number: ['search_number'],
  quantity: ['search_quantity'],
  reference: ['search_reference'],
  uri: ['search_uri'],
  composite: ['search_composite'],
  special: [],
};
const everyTable = [...new Set(Object.values(tablesByType).flat())];

/** The index tables parameters of `types` wrote to (every one for a type not known). */
export function indexTablesOf(types: readonly string[]): string[] {
  if (types.length === 0) return everyTable;
  // Own keys only: a type is read from a job a project member may have written (`constructor`…).
  return [...new Set(types.flatMap((type) => (Object.hasOwn(tablesByType, type) ? tablesByType[type] : everyTable)))];
}

/** The lock a save of a project's SearchParameter of `code` takes (searchParameterDuplicates.ts). */
export async function lockProjectCode(tx: SqlExecutor, projectId: string, code: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('search-parameter-code:' || $1 || '|' || $2))", [
    projectId,
    code,
  ]);
}

/**
 * What makes a project's index rows of `code` on `resourceType`: `base` (a base definition, which
 * wins in every project), the id of the project's (first saved) stored SearchParameter of that code
 * on the type (or on `Resource`), or undefined when nothing does any more.
 */
export async function indexRowOwner(
  tx: SqlExecutor,
  registry: SearchParameterRegistry,
  projectId: string,
  resourceType: string,
  code: string,
): Promise<string | undefined> {
  if (registry.baseDefines(resourceType, code)) return 'base';
  const rows = await tx.query<{ id: string }>(
    `SELECT id FROM resources
     WHERE resource_type = 'SearchParameter' AND project_id = $1 AND NOT deleted AND content->>'code' = $2
       AND jsonb_typeof(content->'base') = 'array'
       AND EXISTS (
         SELECT 1 FROM jsonb_array_elements_text(content->'base') AS b(base)
         WHERE b.base IN ($3, 'Resource', 'DomainResource'))
     ORDER BY last_updated, id LIMIT 1`,
    [projectId, code, resourceType],
  );
  return rows[0]?.id;
}

export interface RemovalBatch {
  /** Resources looked at in the batch. */
  resources: number;
  /** Index rows removed. */
  removed: number;
  /** The id of the batch's last resource. */
  after: string;
}

export interface RemovalOptions {
  projectId: string;
  /** The resource type whose rows are removed. */
  resourceType: string;
  code: string;
  /** The SearchParameter types whose tables hold the rows (every table when none is known). */
  types: readonly string[];
  batchSize: number;
  /** Resumes past this resource id. */
  after?: string;
  /** Awaited after every batch. */
  onBatch(batch: RemovalBatch): Promise<void>;
  /** Asked before every batch: true ends the removal (answering `stopped`). */
  stopped(): boolean;
}

/**
 * Removes the project's index rows of `code` on `resourceType`, in batches of resources (each its
 * own transaction, the batch's resources locked as a write of them locks them), while nothing owns
 * them (`indexRowOwner`). Answers `done`, `owned` (something defines the code for the type again:
 * what is left is its) or `stopped`.
 */
export async function removeIndexRows(
  db: Database,
  registry: SearchParameterRegistry,
  options: RemovalOptions,
): Promise<'done' | 'owned' | 'stopped'> {
  const { projectId, resourceType, code } = options;
  const tables = indexTablesOf(options.types);
  let after = options.after ?? '';
  for (;;) {
    if (options.stopped()) return 'stopped';
    const batch = await db.transaction(async (tx): Promise<RemovalBatch | 'owned' | undefined> => {
      await lockProjectCode(tx, projectId, code);
      if ((await indexRowOwner(tx, registry, projectId, resourceType, code)) !== undefined) return 'owned';
      const ids = (
        await tx.query<{ id: string }>(
          `SELECT id FROM resources
           WHERE resource_type = $1 AND project_id = $2 AND NOT deleted AND id > $3
           ORDER BY id LIMIT ${Math.max(1, Math.floor(options.batchSize))} FOR UPDATE`,
          [resourceType, projectId, after],
        )
      ).map((row) => row.id);
      if (ids.length === 0) return undefined;
      let removed = 0;
      for (const table of tables) {
        const deleted = await tx.query<{ n: number }>(
          `WITH gone AS (
             DELETE FROM ${table} t USING unnest($3::text[]) AS k(id)
             WHERE t.resource_type = $1 AND t.code = $2 AND t.resource_id = k.id
             RETURNING 1)
           SELECT count(*)::integer AS n FROM gone`,
          [resourceType, code, arrayLiteral(ids)],
        );
        removed += Number(deleted[0]?.n ?? 0);
      }
      return { resources: ids.length, removed, after: ids[ids.length - 1] };
    });
    if (batch === undefined) return 'done';
    if (batch === 'owned') return 'owned';
    after = batch.after;
    await options.onBatch(batch);
  }
}
