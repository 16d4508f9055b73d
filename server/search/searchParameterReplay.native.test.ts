import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { searchParameterReplay } from './searchParameterReplay.test-support';

const url = process.env.HEARTH_TEST_DATABASE_URL as string;
// A database of its own: the replay reads the index tables, which nobody else may fill meanwhile.
const name = `hearth_search_parameter_replay_${process.pid}_${Date.now()}`;
let db: Database | undefined;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

beforeAll(async () => {
  await admin(`CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  db = await openDatabase({ databaseUrl: own.toString() });
});

afterAll(async () => {
  await db?.close();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

searchParameterReplay(() => {
  if (!db) throw new Error('The test database is not open yet');
  return db;
});
