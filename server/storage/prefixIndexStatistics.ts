import type { Database } from './database';

/** The tables whose `<table>_value_idx` is on `left(…)` prefixes (migrations.ts): the planner knows those only after ANALYZE. */
const prefixIndexedTables = ['search_token', 'search_string', 'search_uri'];
const prefixIndexes = prefixIndexedTables.map((table) => `${table}_value_idx`);

/**
 * Makes sure the free-text prefix indexes have statistics: without them the planner scans
 * search_token for every candidate row (seconds per search on a fresh database). Statistics are
 * kept by the database across restarts (and refreshed by autovacuum or StatisticsMaintenance), so
 * ANALYZE runs only when one of these indexes has none yet — a new database, or one restored from a
 * dump; it took 0.2–0.5 s of every restart before (issue 20). An empty table has no statistics
 * even after ANALYZE, so a database without, say, any URI row is analyzed on each start, which
 * costs nothing there.
 */
export async function ensurePrefixIndexStatistics(db: Database): Promise<'kept' | 'analyzed'> {
  // pg_stats rather than pg_statistic: it answers a role that is not a superuser too.
  const [{ indexes }] = await db.query<{ indexes: number }>(
    'SELECT count(DISTINCT tablename)::int AS indexes FROM pg_stats WHERE tablename = ANY($1::text[])',
    [prefixIndexes],
  );
  if (Number(indexes) === prefixIndexes.length) return 'kept';
  // exec: without the statement timeout, since this runs on a restored (so large and cold) database too.
  await db.exec(`ANALYZE ${prefixIndexedTables.join(', ')}`);
  return 'analyzed';
}
