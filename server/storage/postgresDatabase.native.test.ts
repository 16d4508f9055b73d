import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Database } from './database';
import { migrate } from './migrations';
import { openPostgresDatabase } from './postgresDatabase';

const url = process.env.HEARTH_TEST_DATABASE_URL as string;

describe('native PostgreSQL pool', () => {
  let db: Database | undefined;
  afterAll(async () => db?.close());

  it('survives the server ending an idle pooled connection, and the next query works', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    db = await openPostgresDatabase(url);
    const [{ pid }] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('terminating connection')));
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    warn.mockRestore();
  });

  it('stores resource JSON compressed with lz4 in the current and history tables', async () => {
    db ??= await openPostgresDatabase(url);
    await migrate(db);
    const columns = await db.query<{ relname: string; attcompression: string }>(
      `SELECT c.relname, a.attcompression FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relname IN ('resources', 'resource_history') AND a.attname = 'content' ORDER BY c.relname`,
    );
    expect(columns).toEqual([
      { relname: 'resource_history', attcompression: 'l' },
      { relname: 'resources', attcompression: 'l' },
    ]);
    // A value big enough to be compressed really is compressed with lz4 (in a rolled-back transaction).
    const method = await db
      .transaction(async (tx) => {
        const text = JSON.stringify({ resourceType: 'Basic', id: 'lz4', note: 'a'.repeat(20_000) });
        await tx.query(
          `INSERT INTO resource_history (version_id, resource_type, id, last_updated, operation, content)
           VALUES ('lz4-check', 'Basic', 'lz4', now(), 'create', $1::jsonb)`,
          [text],
        );
        const rows = await tx.query<{ method: string }>(
          `SELECT pg_column_compression(content) AS method FROM resource_history WHERE version_id = 'lz4-check'`,
        );
        throw Object.assign(new Error('roll back'), { method: rows[0].method });
      })
      .catch((error: { method?: string }) => error.method);
    expect(method).toBe('lz4');
  });
});
