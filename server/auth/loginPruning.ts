import type { ClientApplication, Login } from '@medplum/fhirtypes';
import { deleteIndexRows } from '../fhir/writeFlush';
import { arrayLiteral } from '../storage/arrayLiteral';
import type { Database, SqlExecutor } from '../storage/database';
import { loginPrunable, loginRetentionMs } from './loginPrunable';

export interface LoginPruningOptions {
  /** How long an ended Login is kept (`loginRetentionMs`). */
  retentionMs?: number;
  /** Logins looked at per transaction: each batch is its own short transaction. */
  batchSize?: number;
  /** Stops the sweep between batches (the server is closing); what was deleted stays deleted. */
  signal?: AbortSignal;
}

interface CandidateRow {
  id: string;
  /** last_updated as the database prints it, so the next batch starts exactly after it. */
  at: string;
  content: Login | string;
}

/** Where the previous batch stopped: (last_updated, id) of its last row. */
interface Cursor {
  at: string;
  id: string;
}

/**
 * Deletes the Logins `loginPrunable` allows at `now`: the current row, every version in
 * resource_history and the rows of every search index table, in one transaction per batch.
 * Nothing else is keyed by a Login that would be left behind (bulk export jobs and FHIRcast
 * subscriptions name their login but have sweeps of their own, well within the retention; the
 * two-factor steps are kept per user). Answers how many Logins were deleted.
 *
 * Several server processes may sweep at once: each batch locks the rows it looks at and skips those
 * another process holds, and a row already gone deletes nothing.
 */
export async function pruneEndedLogins(db: Database, now: number, options: LoginPruningOptions = {}): Promise<number> {
  const retentionMs = options.retentionMs ?? loginRetentionMs;
  const batchSize = options.batchSize ?? 500;
  // Only a Login written before this can be prunable (loginPrunable's first condition), and the
  // type's (last_updated, id) index finds those without reading the others.
  const writtenBefore = new Date(now - retentionMs).toISOString();
  let cursor: Cursor = { at: '-infinity', id: '' };
  let removed = 0;
  for (;;) {
    if (options.signal?.aborted) return removed;
    const batch = await db.transaction((tx) => pruneBatch(tx, { writtenBefore, cursor, batchSize, now, retentionMs }));
    removed += batch.removed;
    if (!batch.next) return removed;
    cursor = batch.next;
  }
}

async function pruneBatch(
  tx: SqlExecutor,
  batch: { writtenBefore: string; cursor: Cursor; batchSize: number; now: number; retentionMs: number },
): Promise<{ removed: number; next: Cursor | undefined }> {
  const rows = await tx.query<CandidateRow>(
    `SELECT id, last_updated::text AS at, content FROM resources
     WHERE resource_type = 'Login' AND NOT deleted AND last_updated < $1::timestamptz
       AND (last_updated, id) > ($2::timestamptz, $3::text)
     ORDER BY last_updated, id LIMIT $4
     FOR UPDATE SKIP LOCKED`,
    [batch.writtenBefore, batch.cursor.at, batch.cursor.id, batch.batchSize],
  );
  if (rows.length === 0) return { removed: 0, next: undefined };
  const logins = rows.map((row) => ({
    id: row.id,
    login: typeof row.content === 'string' ? (JSON.parse(row.content) as Login) : row.content,
  }));
  const clients = await clientsOf(
    tx,
    logins.map(({ login }) => login),
  );
  const ids = logins
    .filter(({ login }) => loginPrunable(login, clientOf(login, clients), batch.now, batch.retentionMs))
    .map(({ id }) => id);
  if (ids.length > 0) {
    const idArray = arrayLiteral(ids);
    await tx.query(`DELETE FROM resources WHERE resource_type = 'Login' AND id = ANY($1::text[])`, [idArray]);
    await tx.query(`DELETE FROM resource_history WHERE resource_type = 'Login' AND id = ANY($1::text[])`, [idArray]);
    await deleteIndexRows(
      tx,
      ids.map((id) => ({ resourceType: 'Login', id })),
    );
  }
  const last = rows[rows.length - 1];
  return { removed: ids.length, next: rows.length < batch.batchSize ? undefined : { at: last.at, id: last.id } };
}

/** The ClientApplications the Logins name, by id (a deleted or unknown one is absent). */
async function clientsOf(tx: SqlExecutor, logins: readonly Login[]): Promise<Map<string, ClientApplication>> {
  const ids = [...new Set(logins.map(clientIdOf).filter((id): id is string => id !== undefined))];
  if (ids.length === 0) return new Map();
  const rows = await tx.query<{ id: string; content: ClientApplication | string }>(
    `SELECT id, content FROM resources WHERE resource_type = 'ClientApplication' AND NOT deleted AND id = ANY($1::text[])`,
    [arrayLiteral(ids)],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      typeof row.content === 'string' ? (JSON.parse(row.content) as ClientApplication) : row.content,
    ]),
  );
}

function clientIdOf(login: Login): string | undefined {
  const reference = login.client?.reference;
  return reference?.startsWith('ClientApplication/') ? reference.slice('ClientApplication/'.length) : undefined;
}

function clientOf(login: Login, clients: ReadonlyMap<string, ClientApplication>): ClientApplication | undefined {
  const id = clientIdOf(login);
  return id === undefined ? undefined : clients.get(id);
}
