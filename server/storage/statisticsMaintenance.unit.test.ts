import { describe, expect, it } from 'vitest';
import type { Database } from './database';
import { StatisticsMaintenance } from './statisticsMaintenance';
import { openPgliteDatabase } from './pgliteDatabase';

describe('StatisticsMaintenance', () => {
  it('runs ANALYZE once enough writes have piled up, and gathers statistics', async () => {
    const db = await openPgliteDatabase(undefined);
    const statements: string[] = [];
    const spy: Database = { ...db, exec: (sql) => (statements.push(sql), db.exec(sql)) };
    await db.exec('CREATE TABLE t (v int)');
    await db.query('INSERT INTO t SELECT generate_series(1, 1000)');
    const maintenance = new StatisticsMaintenance(spy, 100);
    maintenance.recordWrites(60);
    expect(statements).toEqual([]);
    maintenance.recordWrites(60);
    expect(statements).toEqual(['ANALYZE']);
    await db.query('SELECT 1'); // waits behind ANALYZE in the serial queue
    const stats = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 't'");
    expect(stats[0].n).toBe(1);
    await db.close();
  });
});
