import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../server/storage/database';
import { openDatabase } from '../../server/storage/openDatabase';

/**
 * A migrated embedded database (PGlite) of its own for one test file: opened before its tests,
 * closed and removed after them. It lives in a temporary folder because PGlite kept in memory cannot
 * load the btree_gist extension the migrations need. Answers the database once it is open.
 */
export function embeddedTestDatabase(name: string): () => Database {
  const dataDir = mkdtempSync(join(tmpdir(), `hearth-${name}-`));
  let db: Database | undefined;
  beforeAll(async () => {
    db = await openDatabase({ dataDir });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!db) throw new Error('The test database is not open yet');
    return db;
  };
}
