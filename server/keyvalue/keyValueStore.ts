import type { SqlExecutor } from '../storage/database';

/** Per-owner text values in `user_key_values`; the owner is a partition named by keyValuePartition.ts. */
export class KeyValueStore {
  constructor(private readonly db: SqlExecutor) {}

  async get(owner: string, key: string): Promise<string | undefined> {
    const rows = await this.db.query<{ value: string }>(
      'SELECT value FROM user_key_values WHERE owner = $1 AND key = $2',
      [owner, key],
    );
    return rows[0]?.value;
  }

  async put(owner: string, key: string, value: string): Promise<void> {
    await this.db.query(
      `INSERT INTO user_key_values (owner, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (owner, key) DO UPDATE SET value = EXCLUDED.value, updated = now()`,
      [owner, key, value],
    );
  }

  /** True when a value was removed. */
  async delete(owner: string, key: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM user_key_values WHERE owner = $1 AND key = $2 RETURNING key', [
      owner,
      key,
    ]);
    return rows.length > 0;
  }

  async count(owner: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM user_key_values WHERE owner = $1', [
      owner,
    ]);
    return Number(rows[0].n);
  }
}
