import { beforeAll, describe, expect, it } from 'vitest';
import { resourceScopesOf } from '../../data-provider/access';
import { AccessGuard } from '../auth/accessGuard';
import { queryFromString } from '../fhir/fhirOperations';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { ESTIMATE_COUNTED_UP_TO } from '../../data-provider/search/estimatedTotal';
import { executeSearch } from './searchExecutor';
import { parseSearchRequest } from './searchRequest';
import type { SearchScope } from './searchSql';

const registry = definitionSearchParameters();
const system = 'urn:estimate-replay';

/** Who asks: real access guards' scopes, as the repository passes them to executeSearch. */
const callers: Record<string, SearchScope> = {
  'member of A': new AccessGuard({ projectId: 'A', sharedProjectId: 'S', superAdmin: false }, registry).scope,
  'super admin': new AccessGuard({ projectId: 'S', sharedProjectId: 'S', superAdmin: true }, registry).scope,
  'super admin through a scoped app': new AccessGuard(
    { projectId: 'S', sharedProjectId: 'S', superAdmin: true, scopes: resourceScopesOf('user/Observation.rs') },
    registry,
  ).scope,
};

/** Observations with `code` in `project`, straight into the tables a write fills (the index rows the search reads). */
async function insertObservations(db: Database, project: string, code: string, howMany: number): Promise<void> {
  const ids = Array.from({ length: howMany }, (_, i) => `${project}-${code}-${i}`);
  await db.query(
    `INSERT INTO resources (resource_type, id, version_id, project_id, last_updated, content)
     SELECT 'Observation', id, id, $2, now(), jsonb_build_object('resourceType', 'Observation', 'id', id)
     FROM unnest($1::text[]) AS x(id)`,
    [ids, project],
  );
  await db.query(
    `INSERT INTO search_token (resource_type, resource_id, code, system, value)
     SELECT 'Observation', id, 'code', $2, $3 FROM unnest($1::text[]) AS x(id)`,
    [ids, system, code],
  );
}

async function total(db: Database, caller: string, query: string): Promise<number | undefined> {
  const request = parseSearchRequest('Observation', queryFromString(query), registry);
  return (await executeSearch(db, request, callers[caller])).total;
}

/**
 * The `_total=estimate` attack replayed at the database, with fresh planner statistics (ANALYZE)
 * before each look, as autovacuum or StatisticsMaintenance give them in production: project A's
 * member asks about codes, project B writes thousands of matching rows, A asks again. Used by
 * estimatedTotal.unit.test.ts (embedded PGlite) and estimatedTotal.native.test.ts (PostgreSQL).
 */
export function estimatedTotalReplay(database: () => Database): void {
  /** A holds more of `common` than the cap counts, and 5 of `shared`; B will hold `shared` and `onlyB`. */
  const inA = { common: ESTIMATE_COUNTED_UP_TO + 200, shared: 5 };
  const inB = 3_000;

  /** What A's member learns from `_total=estimate` (plain and `_summary=count`). */
  async function memberAnswers(db: Database) {
    const answers: Record<string, number | undefined> = {};
    for (const code of ['common', 'shared', 'onlyB', 'nobody']) {
      answers[code] = await total(db, 'member of A', `code=${system}|${code}&_total=estimate&_count=1`);
      answers[`${code} (_summary=count)`] = await total(
        db,
        'member of A',
        `code=${system}|${code}&_total=estimate&_summary=count`,
      );
    }
    return answers;
  }

  describe('_total=estimate, replayed with planner statistics', () => {
    let before: Record<string, number | undefined>;
    let after: Record<string, number | undefined>;

    beforeAll(async () => {
      const db = database();
      await insertObservations(db, 'A', 'common', inA.common);
      await insertObservations(db, 'A', 'shared', inA.shared);
      await db.exec('ANALYZE');
      before = await memberAnswers(db);
      await insertObservations(db, 'B', 'shared', inB);
      await insertObservations(db, 'B', 'onlyB', inB);
      await db.exec('ANALYZE');
      after = await memberAnswers(db);
    });

    it("tells A's member nothing of B's rows: the same answers before and after B writes thousands", () => {
      expect(after).toEqual(before);
    });

    it("answers A's member its own exact count under the cap, and no total above it", () => {
      expect(after).toEqual({
        common: undefined,
        'common (_summary=count)': undefined,
        shared: inA.shared,
        'shared (_summary=count)': inA.shared,
        onlyB: 0,
        'onlyB (_summary=count)': 0,
        nobody: 0,
        'nobody (_summary=count)': 0,
      });
    });

    it('gives a super admin across projects the exact count under the cap, and a number above it', async () => {
      const db = database();
      expect(await total(db, 'super admin', `code=${system}|nobody&_total=estimate`)).toBe(0);
      for (const code of ['common', 'shared', 'onlyB']) {
        const estimate = await total(db, 'super admin', `code=${system}|${code}&_total=estimate&_summary=count`);
        expect(estimate).toBeGreaterThan(ESTIMATE_COUNTED_UP_TO);
      }
    });

    it("gives no estimate above the cap to a super admin's scoped app: its scopes limit what it may learn", async () => {
      const app = 'super admin through a scoped app';
      expect(await total(database(), app, `code=${system}|common&_total=estimate`)).toBeUndefined();
      expect(await total(database(), app, `code=${system}|onlyB&_total=estimate`)).toBeUndefined();
      expect(await total(database(), app, `code=${system}|nobody&_total=estimate`)).toBe(0);
    });

    it('leaves _total=accurate and _total=none as they were', async () => {
      const db = database();
      expect(await total(db, 'member of A', `code=${system}|common&_total=accurate&_count=1`)).toBe(inA.common);
      expect(await total(db, 'super admin', `code=${system}|shared&_total=accurate&_count=1`)).toBe(inA.shared + inB);
      expect(await total(db, 'member of A', `code=${system}|shared&_total=none`)).toBeUndefined();
    });
  });
}
