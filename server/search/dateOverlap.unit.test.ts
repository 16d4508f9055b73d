import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import type { Database } from '../storage/database';
import { dateOverlapCondition } from './dateOverlap';

const database = embeddedTestDatabase('date-overlap');
let db: Database;

const day = 86_400_000;
const at = (iso: string) => Date.parse(iso);
const t0 = at('2030-05-10T00:00:00.000Z');

/** Spans around the one-day boundary between the two branches, and open ends; [low, high] in ms or null. */
const spans: Record<string, [number | null, number | null]> = {
  'an instant': [t0 + 3_600_000, t0 + 3_600_000],
  'an hour': [t0 + 10 * 3_600_000, t0 + 11 * 3_600_000],
  'a date (a day less a millisecond)': [t0 - day, t0 - 1],
  'exactly a day, starting a day early': [t0 - day, t0],
  'a day and a millisecond, ending at the start': [t0 - day - 1, t0],
  'a day and a millisecond, ending just before': [t0 - day - 2, t0 - 1],
  'four days across the start': [t0 - 2 * day, t0 + 2 * day],
  'a month ending before': [t0 - 40 * day, t0 - 10 * day],
  'a year around it': [t0 - 200 * day, t0 + 165 * day],
  'open end, started long before': [t0 - 300 * day, null],
  'open end, starting after': [t0 + 5 * day, null],
  'open start, ending inside': [null, t0 + 3_600_000],
  'open start, ending before': [null, t0 - day],
  'an instant at the end': [t0 + day, t0 + day],
  'a point just after the end': [t0 + day + 1, t0 + day + 1],
};

/** Does [low, high] (inclusive, null = unbounded) overlap the range from..to with the given bounds? */
function overlaps([low, high]: [number | null, number | null], from: number, to: number, bounds: string): boolean {
  const startsBeforeEnd = low === null || (bounds[1] === ']' ? low <= to : low < to);
  const endsAfterStart = high === null || (bounds[0] === '[' ? high >= from : high > from);
  return startsBeforeEnd && endsAfterStart;
}

beforeAll(async () => {
  db = database();
  const names = Object.keys(spans);
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  await db.query(
    `INSERT INTO search_date (resource_type, resource_id, code, low, high)
     SELECT 'Encounter', name, 'date', low, high FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS x(name, low, high)`,
    [names, names.map((n) => iso(spans[n][0])), names.map((n) => iso(spans[n][1]))],
  );
});

async function matching(from: number, to: number, bounds: string): Promise<string[]> {
  const rows = await db.query<{ resource_id: string }>(
    `SELECT resource_id FROM search_date t WHERE t.resource_type = 'Encounter' AND t.code = 'date'
       AND ${dateOverlapCondition('t', '$1::timestamptz', '$2::timestamptz', bounds)} ORDER BY resource_id`,
    [new Date(from).toISOString(), new Date(to).toISOString()],
  );
  return rows.map((row) => row.resource_id);
}

describe('date overlap of a merged range (short spans by the b-tree, long ones by the GiST)', () => {
  it('finds exactly the rows a single overlap test finds, at every bound and around the one-day boundary', async () => {
    const ranges: [number, number][] = [
      [t0, t0 + day],
      [t0 - 1, t0],
      [t0 + day, t0 + 2 * day],
      [t0 - 30 * day, t0 - 20 * day],
      [t0 + 6 * day, t0 + 7 * day],
    ];
    let compared = 0;
    for (const [from, to] of ranges) {
      for (const bounds of ['[]', '[)', '(]', '()']) {
        const expected = Object.keys(spans)
          .filter((name) => overlaps(spans[name], from, to, bounds))
          .sort();
        expect({ from, to, bounds, found: await matching(from, to, bounds) }).toEqual({
          from,
          to,
          bounds,
          found: expected,
        });
        compared += expected.length;
      }
    }
    // The grid reaches rows of both branches, open ends included.
    expect(compared).toBeGreaterThan(40);
    expect(await matching(t0, t0 + day, '[)')).toEqual(
      expect.arrayContaining(['an hour', 'four days across the start', 'open end, started long before']),
    );
  });

  it('can answer from the two indexes: the GiST holds only long spans, and the branch proves its predicate', async () => {
    const [index] = await db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'search_date_span_idx'`,
    );
    expect(index.indexdef).toMatch(/USING gist .* WHERE/);
    // Years of other Encounters' instants, so that reading all of this type and code costs more than
    // the two bounded scans (as it does on any real database).
    await db.query(
      `INSERT INTO search_date (resource_type, resource_id, code, low, high)
       SELECT 'Encounter', 'filler-' || n, 'date', t, t
       FROM generate_series(1, 5000) AS n, LATERAL (SELECT timestamptz '2020-01-01' + n * interval '7 hours' AS t) x`,
    );
    await db.query('ANALYZE search_date');
    const plan = await db.transaction(async (tx) => {
      const rows = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT resource_id FROM search_date t WHERE t.resource_type = 'Encounter' AND t.code = 'date'
           AND ${dateOverlapCondition('t', "'2030-05-10T00:00:00Z'::timestamptz", "'2030-05-11T00:00:00Z'::timestamptz", '[)')}`,
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('search_date_span_idx');
    expect(plan).toContain('search_date_range_idx');
    expect(plan).not.toContain('Seq Scan');
  });
});
