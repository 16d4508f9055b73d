import pg from 'pg';
import { expect, vi } from 'vitest';

/**
 * A database of its own in the native test cluster (HEARTH_TEST_DATABASE_URL), for tests that open
 * the server's connections with settings of their own (a small statement timeout) or lock its
 * tables, without disturbing the shared test server's database.
 */
export interface ThrowawayDatabase {
  name: string;
  /** Its connection string. */
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>;
  /** Runs `work` on a connection of its own to this database (or to `connectionString`). */
  withClient<T>(work: (client: pg.Client) => Promise<T>, connectionString?: string): Promise<T>;
  /** Resolves once a backend of this database waits for a lock of type `event` (pg_stat_activity). */
  someoneWaitsFor(watcher: pg.Client, event: 'relation' | 'advisory'): Promise<void>;
  /**
   * Runs `work` while `table` is locked (ACCESS EXCLUSIVE) and keeps the lock until one of its
   * statements has waited for it `heldMs`: that statement then outlasts a timeout shorter than
   * `heldMs` whatever the machine's speed (the database counts a lock wait as statement time).
   */
  behindTableLock<T>(table: string, heldMs: number, work: () => PromiseLike<T>): Promise<T>;
}

export function throwawayDatabase(prefix: string): ThrowawayDatabase {
  const clusterUrl = process.env.HEARTH_TEST_DATABASE_URL as string;
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const at = new URL(clusterUrl);
  at.pathname = `/${name}`;
  const url = at.toString();

  const withClient = async <T>(work: (client: pg.Client) => Promise<T>, connectionString = url): Promise<T> => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  const someoneWaitsFor = (watcher: pg.Client, event: 'relation' | 'advisory') =>
    vi.waitFor(
      async () => {
        const { rows } = await watcher.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND wait_event = $2`,
          [name, event],
        );
        expect(rows).toHaveLength(1);
      },
      { timeout: 20_000, interval: 20 },
    );

  return {
    name,
    url,
    create: () => withClient((admin) => admin.query(`CREATE DATABASE ${name}`), clusterUrl).then(() => undefined),
    drop: () =>
      withClient((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`), clusterUrl).then(
        () => undefined,
      ),
    withClient,
    someoneWaitsFor,
    behindTableLock: (table, heldMs, work) =>
      withClient(async (holder) => {
        await holder.query('BEGIN');
        await holder.query(`LOCK TABLE ${pg.escapeIdentifier(table)} IN ACCESS EXCLUSIVE MODE`);
        const running = Promise.resolve(work());
        // Handled here too, so that a failure while the lock is held is not reported as unhandled.
        running.catch(() => undefined);
        await someoneWaitsFor(holder, 'relation');
        await new Promise((resolve) => setTimeout(resolve, heldMs));
        await holder.query('COMMIT');
        return running;
      }),
  };
}
