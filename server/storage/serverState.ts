import type { SqlExecutor } from './database';

/** Small facts the server keeps about itself (definitions version, bootstrap ids). */
export async function readState<T>(db: SqlExecutor, key: string): Promise<T | undefined> {
  const rows = await db.query<{ value: T }>('SELECT value FROM server_state WHERE key = $1', [key]);
  return rows[0]?.value;
}

export async function writeState(db: SqlExecutor, key: string, value: unknown): Promise<void> {
  await db.query(
    'INSERT INTO server_state (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [key, JSON.stringify(value)],
  );
}
