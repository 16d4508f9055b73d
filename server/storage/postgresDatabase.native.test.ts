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

  it("plans without parallel workers on every pool, keeps the generic plans of the read pool, and applies the URL's own options", async () => {
    // Settings under which PostgreSQL plans even a tiny scan in parallel: a connection with the
    // defaults gets a Gather, the server's connections must not. (SET LOCAL: only for the transaction.)
    const eager =
      'SET LOCAL parallel_setup_cost = 0; SET LOCAL parallel_tuple_cost = 0; SET LOCAL min_parallel_table_scan_size = 0';
    const plan = async (run: (sql: string) => Promise<Record<string, unknown>[]>) => {
      await run(eager);
      const rows = await run('EXPLAIN SELECT count(*) FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid');
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    try {
      await plain.query('BEGIN');
      expect(await plan(async (sql) => (await plain.query(sql)).rows)).toContain('Gather');
      await plain.query('ROLLBACK');
    } finally {
      await plain.end();
    }

    const withOptions = new URL(url);
    withOptions.searchParams.set('options', '-c statement_timeout=4321');
    const server = await openPostgresDatabase(withOptions.toString());
    try {
      const settings = async (run: (sql: string) => Promise<unknown[]>) =>
        run(
          `SELECT current_setting('max_parallel_workers_per_gather') AS workers,
                  current_setting('plan_cache_mode') AS plans, current_setting('statement_timeout') AS timeout`,
        );
      expect(await settings((sql) => server.query(sql))).toEqual([{ workers: '0', plans: 'auto', timeout: '4321ms' }]);
      expect(await settings((sql) => server.keyLookups!.query(sql))).toEqual([
        { workers: '0', plans: 'force_generic_plan', timeout: '4321ms' },
      ]);
      expect(await server.transaction((tx) => settings((sql) => tx.query(sql)))).toEqual([
        { workers: '0', plans: 'auto', timeout: '4321ms' },
      ]);
      expect(await server.transaction((tx) => plan((sql) => tx.query(sql)))).not.toContain('Gather');
    } finally {
      await server.close();
    }
  });
});
