import type { Resource } from '@medplum/fhirtypes';
import type { SqlExecutor } from '../storage/database';
import type { IndexRows } from '../search/indexRows';
import type { HistoryOperation } from './repository';

export interface PendingWrite {
  resource: Resource;
  operation: HistoryOperation;
  /** Index rows of the new version; undefined for a delete (which removes them). */
  rows: IndexRows | undefined;
  compartments: string[];
  /** A fresh server-assigned id: nothing can exist yet, so there is nothing to replace. */
  isNew: boolean;
  /** For a delete: the content before it (for subscriptions matching deleted resources). */
  previous?: Resource;
}

const indexColumns: Record<keyof IndexRows, string[]> = {
  token: ['code text', 'system text', 'value text', 'display text'],
  string: ['code text', 'value text', 'normalized text'],
  date: ['code text', 'low timestamptz', 'high timestamptz'],
  number: ['code text', 'value numeric'],
  quantity: ['code text', 'value numeric', 'system text', 'unit_code text'],
  reference: ['code text', 'target_type text', 'target_id text', 'reference text'],
  uri: ['code text', 'value text'],
  composite: ['code text', 'components jsonb'],
};

/**
 * Writes buffered versions with one statement per table, however many resources: a transaction
 * Bundle of 300 entries costs the same dozen round trips as a single create.
 */
export async function flushWrites(tx: SqlExecutor, writes: readonly PendingWrite[]): Promise<void> {
  const current = writes.map((w) => ({
    resource_type: w.resource.resourceType,
    id: w.resource.id,
    version_id: w.resource.meta?.versionId,
    project_id: w.resource.meta?.project ?? null,
    last_updated: w.resource.meta?.lastUpdated,
    deleted: w.operation === 'delete',
    compartments: w.compartments,
    content: w.resource,
    operation: w.operation,
    latest: false,
  }));
  // Only the last version of each resource in this flush becomes its current row.
  for (const item of lastPerResource(current)) item.latest = true;

  // The current rows and the history in one statement: the versions cross to the database (and
  // are parsed there) once, not once per table (issue 20).
  await tx.query(
    `WITH x AS MATERIALIZED (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(resource_type text, id text, version_id text, project_id text,
            last_updated timestamptz, deleted boolean, compartments jsonb, content jsonb, operation text, latest boolean)
     ), current_rows AS (
       INSERT INTO resources (resource_type, id, version_id, project_id, last_updated, deleted, compartments, content)
       SELECT resource_type, id, version_id, project_id, last_updated, deleted,
              ARRAY(SELECT jsonb_array_elements_text(compartments)), content
       FROM x WHERE latest
       ON CONFLICT (resource_type, id) DO UPDATE SET
         version_id = EXCLUDED.version_id, project_id = EXCLUDED.project_id, last_updated = EXCLUDED.last_updated,
         deleted = EXCLUDED.deleted, compartments = EXCLUDED.compartments, content = EXCLUDED.content
     )
     INSERT INTO resource_history (version_id, resource_type, id, project_id, last_updated, operation, content)
     SELECT version_id, resource_type, id, project_id, last_updated, operation, content FROM x`,
    [JSON.stringify(current)],
  );

  await deleteIndexRows(
    tx,
    writes.filter((w) => !w.isNew).map((w) => ({ resourceType: w.resource.resourceType, id: w.resource.id as string })),
  );
  // Only the last version of each resource in this flush owns index rows.
  const live = lastPerResource(
    writes.map((w) => ({ ...w, resource_type: w.resource.resourceType, id: w.resource.id })),
  );
  await insertIndexRows(
    tx,
    live.map((w) => ({ resourceType: w.resource.resourceType, id: w.resource.id as string, rows: w.rows })),
  );
}

export interface ResourceKey {
  resourceType: string;
  id: string;
}

/** Removes every index row of the given resources. */
export async function deleteIndexRows(tx: SqlExecutor, keys: readonly ResourceKey[]): Promise<void> {
  if (keys.length === 0) return;
  const json = JSON.stringify(keys.map((k) => ({ resource_type: k.resourceType, id: k.id })));
  for (const table of Object.keys(indexColumns)) {
    await tx.query(
      `DELETE FROM search_${table} t USING jsonb_to_recordset($1::jsonb) AS k(resource_type text, id text)
       WHERE t.resource_type = k.resource_type AND t.resource_id = k.id`,
      [json],
    );
  }
}

/** Inserts index rows, one statement per table for all the given resources. */
export async function insertIndexRows(
  tx: SqlExecutor,
  items: readonly (ResourceKey & { rows: IndexRows | undefined })[],
): Promise<void> {
  for (const [table, columns] of Object.entries(indexColumns) as [keyof IndexRows, string[]][]) {
    const rows = items.flatMap((item) =>
      (item.rows?.[table] ?? []).map((row) => ({ ...row, resource_type: item.resourceType, resource_id: item.id })),
    );
    if (rows.length === 0) continue;
    const names = columns.map((c) => c.split(' ')[0]);
    await tx.query(
      `INSERT INTO search_${table} (resource_type, resource_id, ${names.join(', ')})
       SELECT resource_type, resource_id, ${names.join(', ')}
       FROM jsonb_to_recordset($1::jsonb) AS x(resource_type text, resource_id text, ${columns.join(', ')})`,
      [JSON.stringify(rows)],
    );
  }
}

function lastPerResource<T extends { resource_type: string; id: string | undefined }>(list: T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of list) byKey.set(`${item.resource_type}/${item.id}`, item);
  return [...byKey.values()];
}
