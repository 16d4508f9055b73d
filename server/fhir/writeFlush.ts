import type { Resource } from '@medplum/fhirtypes';
import { arrayLiteral } from '../storage/arrayLiteral';
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

export interface ResourceKey {
  resourceType: string;
  id: string;
}

type IndexTable = keyof IndexRows;

/** Each index table's own columns with their types (besides resource_type and resource_id). */
const indexColumns: Record<IndexTable, string[]> = {
  token: ['code text', 'system text', 'value text', 'display text'],
  string: ['code text', 'value text', 'normalized text'],
  date: ['code text', 'low timestamptz', 'high timestamptz'],
  number: ['code text', 'value numeric'],
  quantity: ['code text', 'value numeric', 'system text', 'unit_code text'],
  reference: ['code text', 'target_type text', 'target_id text', 'reference text'],
  uri: ['code text', 'value text'],
  composite: ['code text', 'components jsonb'],
};
const indexTables = Object.keys(indexColumns) as IndexTable[];
const columnNames = (table: IndexTable) => indexColumns[table].map((c) => c.split(' ')[0]);
const namesByTable = Object.fromEntries(indexTables.map((table) => [table, columnNames(table)])) as Record<
  IndexTable,
  string[]
>;
const columnTypes = (table: IndexTable) => ['text', 'text', ...indexColumns[table].map((c) => c.split(' ')[1])];

/** Each table's insert, its rows given as one array per column (`unnest($1::text[], $2::text[], …)`). */
const insertStatements = Object.fromEntries(
  indexTables.map((table) => {
    const arrays = columnTypes(table).map((type, i) => `$${i + 1}::${type}[]`);
    const sql = `INSERT INTO search_${table} (resource_type, resource_id, ${columnNames(table).join(', ')})
      SELECT * FROM unnest(${arrays.join(', ')})`;
    return [table, sql];
  }),
) as Record<IndexTable, string>;

/** Each table's delete of the rows of the resources given as two arrays: types ($1) and ids ($2). */
const deleteStatements = Object.fromEntries(
  indexTables.map((table) => [
    table,
    `DELETE FROM search_${table} t USING unnest($1::text[], $2::text[]) AS k(resource_type, id)
      WHERE t.resource_type = k.resource_type AND t.resource_id = k.id`,
  ]),
) as Record<IndexTable, string>;

/**
 * The current rows and the history of a flush in one statement: the versions ($1, JSON) cross to the
 * database and are parsed there once, not once per table (issue 20).
 */
const versionsStatement = `WITH x AS MATERIALIZED (
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
   SELECT version_id, resource_type, id, project_id, last_updated, operation, content FROM x`;

/** One array per column of a table's rows for the given resources: resource type, resource id, then its own columns. */
function columnArrays(
  table: IndexTable,
  items: readonly (ResourceKey & { rows: IndexRows | undefined })[],
): (string | number | null)[][] {
  const names = namesByTable[table];
  const arrays: (string | number | null)[][] = [[], [], ...names.map(() => [])];
  for (const item of items) {
    const rows = item.rows?.[table] as readonly Record<string, unknown>[] | undefined;
    if (!rows) continue;
    for (const row of rows) {
      arrays[0].push(item.resourceType);
      arrays[1].push(item.id);
      for (let c = 0; c < names.length; c++) arrays[c + 2].push(columnValue(row[names[c]]));
    }
  }
  return arrays;
}

/** An index row's value as an array element: composite components go as their JSON text. */
function columnValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return JSON.stringify(value);
}

/**
 * Writes buffered versions with one statement per table, however many resources: a transaction
 * Bundle of 300 entries costs the same few round trips as a single create. (One statement for
 * everything was tried: the database's CPU per resource was no lower, and a read arriving during
 * an import waited longer behind the one long statement.)
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
  await tx.query(versionsStatement, [JSON.stringify(current)], { prepareAs: 'flush_versions' });

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

/** Removes every index row of the given resources. */
export async function deleteIndexRows(tx: SqlExecutor, keys: readonly ResourceKey[]): Promise<void> {
  if (keys.length === 0) return;
  const types = arrayLiteral(keys.map((k) => k.resourceType));
  const ids = arrayLiteral(keys.map((k) => k.id));
  for (const table of indexTables) {
    await tx.query(deleteStatements[table], [types, ids], { prepareAs: `delete_index_${table}` });
  }
}

/** Inserts index rows, one statement per table for all the given resources. */
export async function insertIndexRows(
  tx: SqlExecutor,
  items: readonly (ResourceKey & { rows: IndexRows | undefined })[],
): Promise<void> {
  for (const table of indexTables) {
    const arrays = columnArrays(table, items);
    if (arrays[0].length === 0) continue;
    await tx.query(insertStatements[table], arrays.map(arrayLiteral), { prepareAs: `insert_index_${table}` });
  }
}

function lastPerResource<T extends { resource_type: string; id: string | undefined }>(list: T[]): T[] {
  const byKey = new Map<string, T>();
  for (const item of list) byKey.set(`${item.resource_type}/${item.id}`, item);
  return [...byKey.values()];
}
