import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { throwawayDatabase } from '../storage/throwawayDatabase.test-support';
import { searchParameterIndexJobs } from './searchParameterIndexJobs.test-support';

// A database of its own, which two pools of connections share as two server processes would: a job's
// claim must hold across them (row locks, leases), not merely within one process.
const database = throwawayDatabase('hearth_index_jobs');
const pools: Database[] = [];
const open = async () => {
  const db = await openDatabase({ databaseUrl: database.url });
  pools.push(db);
  return db;
};

beforeAll(async () => {
  await database.create();
  await open();
  await open();
}, 120_000);

afterAll(async () => {
  // A pool a test closed (a process that died) may refuse to close again.
  for (const db of pools) await db.close().catch(() => undefined);
  await database.drop();
});

const opened = (index: number) => () => {
  const db = pools[index];
  if (!db) throw new Error('The test database is not open yet');
  return db;
};
searchParameterIndexJobs({ database: opened(0), otherProcess: opened(1), openProcess: open });
