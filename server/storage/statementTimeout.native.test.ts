import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FhirError } from '../fhir/fhirError';
import type { Database } from './database';
import { liftStatementTimeout } from './liftStatementTimeout';
import { migrate } from './migrations';
import { openPostgresDatabase } from './postgresDatabase';
import { throwawayDatabase } from './throwawayDatabase.test-support';

/**
 * The request connections' statement timeout on native PostgreSQL (DATABASE_STATEMENT_TIMEOUT_MS):
 * what it cancels, how that is answered, and the maintenance it must leave alone. The slow side of
 * each case is at least 20 times the 50 ms timeout (a 1–2 s sleep, or a lock held that long), so no
 * case depends on how fast the machine is.
 */
const database = throwawayDatabase('hearth_timeout');
const { url, name, withClient } = database;
const timeoutMs = 50;
const someoneWaitsFor = (watcher: pg.Client, event: 'relation' | 'advisory') =>
  database.someoneWaitsFor(watcher, event);

const heldLongerThanTheTimeout = () => new Promise((resolve) => setTimeout(resolve, 20 * timeoutMs));

describe('statement timeout (native PostgreSQL)', () => {
  let db: Database;

  beforeAll(async () => {
    await database.create();
    db = await openPostgresDatabase(url, { statementTimeoutMs: timeoutMs });
  });

  afterAll(async () => {
    await db?.close();
    await database.drop();
  });

  const setting = async (run: (sql: string) => Promise<Record<string, unknown>[]>) =>
    (await run(`SELECT current_setting('statement_timeout') AS timeout`))[0].timeout;

  it("runs every request connection with it; 0 sets none; a URL's own options still win", async () => {
    expect(await setting((sql) => db.query(sql))).toBe('50ms');
    expect(await setting((sql) => db.keyLookups!.query(sql))).toBe('50ms');
    expect(await db.transaction((tx) => setting((sql) => tx.query(sql)))).toBe('50ms');

    const none = await openPostgresDatabase(url, { statementTimeoutMs: 0 });
    const withOptions = new URL(url);
    withOptions.searchParams.set('options', '-c statement_timeout=4321');
    const operators = await openPostgresDatabase(withOptions.toString(), { statementTimeoutMs: timeoutMs });
    try {
      expect(await setting((sql) => none.query(sql))).toBe('0');
      expect(await setting((sql) => operators.query(sql))).toBe('4321ms');
    } finally {
      await Promise.all([none.close(), operators.close()]);
    }
  });

  it('answers a statement the timeout cancelled as 422 too-costly, on the pool, in a transaction and on the read connections', async () => {
    const stopped = async (work: Promise<unknown>) => {
      const error = await work.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(FhirError);
      expect((error as FhirError).status).toBe(422);
      expect((error as FhirError).outcome.issue?.[0]).toMatchObject({ code: 'too-costly' });
      expect((error as FhirError).message).toContain('stopped after 0.05 seconds');
      expect((error as FhirError).message).not.toMatch(/pg_sleep|canceling/);
    };
    await stopped(db.query('SELECT pg_sleep(2)'));
    await stopped(db.transaction((tx) => tx.query('SELECT pg_sleep(2)')));
    await stopped(db.keyLookups!.query('SELECT pg_sleep(2)'));
    // The connections are not left in a broken state.
    expect(await db.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    expect(await db.transaction((tx) => tx.query('SELECT 1 AS one'))).toEqual([{ one: 1 }]);
  });

  it("leaves an administrator's pg_cancel_backend a database error, not a too-costly answer", async () => {
    const patient = await openPostgresDatabase(url, { statementTimeoutMs: 600_000 });
    try {
      const running = patient.query('SELECT pg_sleep(60) AS cancel_me').then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      await withClient(async (admin) => {
        await vi.waitFor(
          async () => {
            const { rows } = await admin.query(
              `SELECT pg_cancel_backend(pid) AS cancelled FROM pg_stat_activity
               WHERE datname = $1 AND query LIKE '%AS cancel_me' AND pid <> pg_backend_pid()`,
              [name],
            );
            expect(rows).toEqual([{ cancelled: true }]);
          },
          { timeout: 20_000, interval: 20 },
        );
      });
      const error = await running;
      expect(error).not.toBeInstanceOf(FhirError);
      expect(error).toBeInstanceOf(pg.DatabaseError);
      expect((error as pg.DatabaseError).code).toBe('57014');
    } finally {
      await patient.close();
    }
  });

  it('runs maintenance statements (exec) without it and gives the connection its timeout back', async () => {
    await db.exec('SELECT pg_sleep(1)');
    expect(await setting((sql) => db.query(sql))).toBe('50ms');
  });

  it('lets a transaction lift it for itself only', async () => {
    await db.transaction(async (tx) => {
      await liftStatementTimeout(tx);
      await tx.query('SELECT pg_sleep(1)');
    });
    expect(await db.transaction((tx) => setting((sql) => tx.query(sql)))).toBe('50ms');
  });

  it("migrates past it: waits for another process's migrations longer than the timeout", async () => {
    await withClient(async (other) => {
      // Another server process migrating holds the migrations' lock (migrations.ts) for a while.
      await other.query('SELECT pg_advisory_lock(81030001)');
      const migrating = migrate(db).then(
        () => 'migrated',
        (thrown: unknown) => thrown,
      );
      await someoneWaitsFor(other, 'advisory');
      await heldLongerThanTheTimeout();
      await other.query('SELECT pg_advisory_unlock(81030001)');
      expect(await migrating).toBe('migrated');
    });
    const [{ count }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
    expect(count).toBeGreaterThan(10);
  });

  it('analyzes past it: ANALYZE (exec) waits for a conflicting lock longer than the timeout', async () => {
    await db.exec('CREATE TABLE analyzed_here (v int)');
    await withClient(async (other) => {
      await other.query('BEGIN');
      // Another ANALYZE (or a VACUUM, a CREATE INDEX) of the table holds it in this mode meanwhile.
      await other.query('LOCK TABLE analyzed_here IN SHARE UPDATE EXCLUSIVE MODE');
      const analyzing = db.exec('ANALYZE analyzed_here').then(
        () => 'analyzed',
        (thrown: unknown) => thrown,
      );
      await someoneWaitsFor(other, 'relation');
      await heldLongerThanTheTimeout();
      await other.query('COMMIT');
      expect(await analyzing).toBe('analyzed');
    });
  });
});
