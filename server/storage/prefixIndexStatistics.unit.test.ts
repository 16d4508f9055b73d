import { describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { ensurePrefixIndexStatistics } from './prefixIndexStatistics';

const database = embeddedTestDatabase('prefix-statistics');

async function analyzedIndexes(): Promise<string[]> {
  const rows = await database().query<{ tablename: string }>(
    `SELECT DISTINCT tablename FROM pg_stats WHERE tablename LIKE 'search\\_%\\_value\\_idx' ORDER BY tablename`,
  );
  return rows.map((row) => row.tablename);
}

describe('statistics of the prefix indexes', { timeout: 30_000 }, () => {
  it('analyzes a database whose prefix indexes have none, and only that once', async () => {
    await database().exec(`
      INSERT INTO search_token (resource_type, resource_id, code, system, value)
        SELECT 'Observation', 'o' || n, 'code', 'http://loinc.org', 'c' || (n % 7) FROM generate_series(1, 200) n;
      INSERT INTO search_string (resource_type, resource_id, code, value, normalized)
        SELECT 'Patient', 'p' || n, 'name', 'Name' || n, 'name' || n FROM generate_series(1, 200) n;
      INSERT INTO search_uri (resource_type, resource_id, code, value)
        SELECT 'ValueSet', 'v' || n, 'url', 'http://example.org/vs/' || n FROM generate_series(1, 200) n;
    `);
    expect(await analyzedIndexes()).toEqual([]);

    expect(await ensurePrefixIndexStatistics(database())).toBe('analyzed');
    expect(await analyzedIndexes()).toEqual([
      'search_string_value_idx',
      'search_token_value_idx',
      'search_uri_value_idx',
    ]);

    // A restart finds them: no second ANALYZE.
    expect(await ensurePrefixIndexStatistics(database())).toBe('kept');
  });
});
