import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Database } from './database';
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
});
