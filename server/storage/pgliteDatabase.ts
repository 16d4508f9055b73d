import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { Database, SqlExecutor } from './database';
import { SerialQueue } from './serialQueue';

/** Embedded PostgreSQL in `dataDir` (or in memory when `dataDir` is undefined). */
export async function openPgliteDatabase(dataDir: string | undefined): Promise<Database> {
  // btree_gist: the date-range index (migration 4) mixes text columns with a tstzrange.
  const pglite = new PGlite(dataDir, { extensions: { btree_gist } });
  await pglite.waitReady;
  const queue = new SerialQueue();

  const direct: SqlExecutor = {
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      const result = await pglite.query<T>(sql, params);
      return result.rows;
    },
  };

  return {
    kind: 'pglite',
    query: (sql, params) => queue.run(() => direct.query(sql, params)),
    exec: (sql) => queue.run(async () => void (await pglite.exec(sql))),
    transaction: (work) =>
      queue.run(async () => {
        await pglite.query('BEGIN');
        try {
          const result = await work(direct);
          await pglite.query('COMMIT');
          return result;
        } catch (error) {
          await pglite.query('ROLLBACK');
          throw error;
        }
      }),
    close: () => queue.run(() => pglite.close()),
    // PGlite keeps its Emscripten module private; its WebAssembly memory is the database's own.
    memoryBytes: () =>
      (pglite as unknown as { mod?: { wasmMemory?: WebAssembly.Memory } }).mod?.wasmMemory?.buffer.byteLength ?? 0,
  };
}
