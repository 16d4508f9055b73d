import type { Database } from '../storage/database';

/** What `putWithinLimit` did: stored the value, or refused a new key because the partition is full. */
export type KeyValuePut = 'stored' | 'full';

/** Per-owner text values in `user_key_values`; the owner is a partition named by keyValuePartition.ts. */
export class KeyValueStore {
  constructor(private readonly db: Database) {}

  async get(owner: string, key: string): Promise<string | undefined> {
    const rows = await this.db.query<{ value: string }>(
      'SELECT value FROM user_key_values WHERE owner = $1 AND key = $2',
      [owner, key],
    );
    return rows[0]?.value;
  }

  /**
   * Stores `value` under `key`, unless `key` is new and the partition already holds `maxKeys` keys.
   *
   * Counting and inserting as two steps let concurrent PUTs of new keys each see room for one more
   * and all insert. Writers of one partition therefore take a transaction-scoped advisory lock of
   * that partition first, so the count each sees includes every key the ones before it added. This
   * relies on READ COMMITTED (the default): there every statement takes a new snapshot, so the count
   * after the lock sees what earlier holders committed; under REPEATABLE READ the snapshot could
   * date from before the wait. A lock rather than a per-partition counter row: no table to keep in
   * step with the values. Two partitions whose hashes collide only wait for each other.
   */
  async putWithinLimit(owner: string, key: string, value: string, maxKeys: number): Promise<KeyValuePut> {
    return this.db.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('keyvalue:' || $1))", [owner]);
      const rows = await tx.query<{ keys: number; present: boolean }>(
        `SELECT count(*)::int AS keys, coalesce(bool_or(key = $2), false) AS present
         FROM user_key_values WHERE owner = $1`,
        [owner, key],
      );
      const { keys, present } = rows[0];
      if (!present && Number(keys) >= maxKeys) return 'full';
      await tx.query(
        `INSERT INTO user_key_values (owner, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (owner, key) DO UPDATE SET value = EXCLUDED.value, updated = now()`,
        [owner, key, value],
      );
      return 'stored';
    });
  }

  /** True when a value was removed. */
  async delete(owner: string, key: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM user_key_values WHERE owner = $1 AND key = $2 RETURNING key', [
      owner,
      key,
    ]);
    return rows.length > 0;
  }
}
