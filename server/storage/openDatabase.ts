import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';
import { migrate } from './migrations';
import { openPgliteDatabase } from './pgliteDatabase';
import { openPostgresDatabase } from './postgresDatabase';

export interface DatabaseOptions {
  /** `postgres://…`: native PostgreSQL. Unset: embedded PGlite. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; undefined keeps it in memory (tests). */
  dataDir?: string;
  /** Native PostgreSQL only (PGlite never cancels a statement): DATABASE_STATEMENT_TIMEOUT_MS. */
  statementTimeoutMs?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let db: Database;
  if (options.databaseUrl) {
    db = await openPostgresDatabase(options.databaseUrl, { statementTimeoutMs: options.statementTimeoutMs });
  } else {
    let pgliteDir: string | undefined;
    if (options.dataDir) {
      pgliteDir = join(options.dataDir, 'pglite');
      mkdirSync(pgliteDir, { recursive: true });
    }
    db = await openPgliteDatabase(pgliteDir);
  }
  await migrate(db);
  return db;
}
