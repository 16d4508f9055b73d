import type { SqlExecutor } from './database';

/**
 * Removes the statement timeout (sessionSettings.ts) until the end of the transaction `tx` is in
 * (SET LOCAL: the connection goes back to the pool with its own): for maintenance one statement of
 * which may legitimately take long on a large database. Each caller says why in a comment. The
 * embedded database never times out; the statement is harmless there.
 */
export async function liftStatementTimeout(tx: SqlExecutor): Promise<void> {
  await tx.query('SET LOCAL statement_timeout = 0');
}
