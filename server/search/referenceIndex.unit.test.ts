import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { searchWhere } from '../../tests/setup/searchWhere';
import type { Database } from '../storage/database';

const database = embeddedTestDatabase('reference-index');
let db: Database;

/** The plan PostgreSQL makes for the search's reference rows alone (the EXISTS's inside, uncorrelated). */
async function referencePlan(search: string): Promise<string> {
  const { sql, values } = searchWhere(search);
  const inner = /FROM search_reference (t\d+) WHERE (.*)\)\)?$/s.exec(sql);
  if (!inner) throw new Error(`no reference condition in ${sql}`);
  const [, alias, condition] = inner;
  // Only the row's own conditions: the owner's (resource_type and id of the outer row) become constants.
  const own = condition.replace(
    `${alias}.resource_type = r.resource_type AND ${alias}.resource_id = r.id AND `,
    `${alias}.resource_type = '${search.split('?')[0]}' AND `,
  );
  return db.transaction(async (tx) => {
    // Which indexes can answer, not which PostgreSQL prefers on a table this small.
    await tx.query('SET LOCAL enable_seqscan = off');
    // Every parameter typed, including the outer query's own (the resource type), which this part never uses.
    const typed = values.map((_, i) => `$${i + 1}::text`).join(', ');
    const rows = await tx.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT resource_id FROM search_reference ${alias} WHERE ${own} AND ARRAY[${typed}] IS NOT NULL`,
      values,
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

beforeAll(async () => {
  db = database();
  await db.query(
    `INSERT INTO search_reference (resource_type, resource_id, code, target_type, target_id, reference)
     SELECT 'Observation', 'o' || n, 'subject', 'Patient', 'p' || (n % 500), 'Patient/p' || (n % 500)
     FROM generate_series(1, 3000) AS n
     UNION ALL
     SELECT 'QuestionnaireResponse', 'q' || n, 'questionnaire', NULL, NULL, 'http://example.org/Questionnaire/form' || (n % 40) || '|1.0'
     FROM generate_series(1, 800) AS n`,
  );
  await db.query('ANALYZE search_reference');
});

describe('reference rows are found through an index for every kind of reference search', () => {
  it('has one b-tree led by the target id, a hash on the text of rows without a target, and the per-resource hash', async () => {
    const indexes = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'search_reference' ORDER BY indexname`,
    );
    expect(indexes.map((index) => index.indexname)).toEqual([
      'search_reference_resource_idx',
      'search_reference_target_idx',
      'search_reference_text_idx',
    ]);
    expect(indexes[1].indexdef).toMatch(/btree \(target_id, target_type, resource_type, code\)/);
    expect(indexes[2].indexdef).toMatch(/USING hash \(reference\) WHERE \(target_id IS NULL\)/);
  });

  it('a forward search by Type/id or a bare id uses the target index', async () => {
    expect(await referencePlan('Observation?subject=Patient/p7')).toContain('search_reference_target_idx');
    expect(await referencePlan('Observation?subject:Patient=p7')).toContain('search_reference_target_idx');
  });

  it('a canonical URL (no target) is found by its text through the hash index', async () => {
    const plan = await referencePlan('QuestionnaireResponse?questionnaire=http://example.org/Questionnaire/form3|1.0');
    expect(plan).toContain('search_reference_text_idx');
    expect(plan).not.toContain('Seq Scan');
  });

  it('a versioned reference is found through its target, and still compared as text', async () => {
    const { sql, values } = searchWhere('Observation?subject=Patient/p7/_history/2');
    expect(values).toEqual(expect.arrayContaining(['p7', 'Patient', 'Patient/p7/_history/2']));
    expect(sql).toMatch(/target_id = \$\d+ AND t\d+\.target_type = \$\d+ AND t\d+\.reference = \$\d+/);
    expect(await referencePlan('Observation?subject=Patient/p7/_history/2')).toContain('search_reference_target_idx');
  });
});
