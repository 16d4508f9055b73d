import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../storage/database';
import { openPgliteDatabase } from '../storage/pgliteDatabase';
import { WriteBehindExecutor } from './writeBehind';

describe('WriteBehindExecutor', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPgliteDatabase(undefined);
    await db.query('CREATE TABLE ahead (n integer PRIMARY KEY)');
  });
  afterAll(async () => db.close());

  it('runs what was sent ahead before any later statement, in order', async () => {
    const seen = await db.transaction(async (tx) => {
      const writer = new WriteBehindExecutor(tx);
      for (const n of [1, 2, 3]) writer.send((t) => t.query('INSERT INTO ahead (n) VALUES ($1)', [n]).then(() => undefined));
      const rows = await writer.query<{ n: number }>('SELECT n FROM ahead ORDER BY n');
      await writer.query('DELETE FROM ahead');
      return rows.map((row) => row.n);
    });
    expect(seen).toEqual([1, 2, 3]);
  });

  it("throws the first failure (the database's own error) to the next statement, and sends nothing after it", async () => {
    const outcome = await db
      .transaction(async (tx) => {
        const writer = new WriteBehindExecutor(tx);
        let afterFailure = false;
        writer.send((t) => t.query('INSERT INTO ahead (n) VALUES (7)').then(() => undefined));
        writer.send((t) => t.query('INSERT INTO ahead (n) VALUES (7)').then(() => undefined));
        writer.send(async () => {
          afterFailure = true;
        });
        try {
          await writer.query('SELECT 1');
          return 'no error';
        } catch (error) {
          await writer.drain();
          return `${(error as Error).message}; later sent work ran: ${afterFailure}`;
        }
      })
      .catch((error: Error) => `transaction failed: ${error.message}`);
    expect(outcome).toMatch(/duplicate key value violates unique constraint/);
    expect(outcome).toMatch(/later sent work ran: false$/);
    // The failed transaction stored nothing.
    expect(await db.query('SELECT n FROM ahead')).toEqual([]);
  });

  it('drain returns only once work queued behind a slow statement has run', async () => {
    const stored = await db.transaction(async (tx) => {
      const writer = new WriteBehindExecutor(tx);
      writer.send((t) => t.query('SELECT pg_sleep(0.2)').then(() => undefined));
      writer.send((t) => t.query('INSERT INTO ahead (n) VALUES (42)').then(() => undefined));
      await writer.drain();
      // Straight on the transaction, past the writer: the row must already be there.
      const rows = await tx.query<{ n: number }>('SELECT n FROM ahead');
      await tx.query('DELETE FROM ahead');
      return rows.map((row) => row.n);
    });
    expect(stored).toEqual([42]);
  });

  it('settle rethrows the failure every time; drain only waits', async () => {
    await db
      .transaction(async (tx) => {
        const writer = new WriteBehindExecutor(tx);
        writer.send(async () => {
          throw new Error('refused');
        });
        await writer.drain();
        await expect(writer.settle()).rejects.toThrow('refused');
        await expect(writer.settle()).rejects.toThrow('refused');
        throw new Error('roll back');
      })
      .catch(() => undefined);
  });
});
