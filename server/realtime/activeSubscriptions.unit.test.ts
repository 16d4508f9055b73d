import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Subscription } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database, SqlExecutor } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { ActiveSubscriptionCache } from './activeSubscriptions';

let db: Database;
// PGlite kept in memory cannot load the btree_gist extension the migrations need: use a folder.
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-active-subscriptions-'));
let repository: Repository;
const ctx: RequestContext = { projectId: 'project-a', author: { reference: 'Patient/attacker' } };

beforeAll(async () => {
  db = await openDatabase({ dataDir });
  repository = new Repository(db, definitionSearchParameters());
}, 120_000);

afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The database as the cache sees it, counting the Subscriptions it reads. */
function countingExecutor(): { executor: SqlExecutor; subscriptionsRead: () => number } {
  let read = 0;
  const executor: SqlExecutor = {
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      const rows = await db.query<T>(sql, params);
      if (/SELECT content, project_id FROM resources/.test(sql)) read += rows.length;
      return rows;
    },
  };
  return { executor, subscriptionsRead: () => read };
}

const subscription = (criteria: string, status: Subscription['status'] = 'active'): Subscription => ({
  resourceType: 'Subscription',
  status,
  reason: 'flood',
  criteria,
  channel: { type: 'websocket' },
});

describe('ActiveSubscriptionCache', { timeout: 30_000 }, () => {
  it('reads and parses only the Subscriptions bound here, however many are stored', async () => {
    // A member saves many Subscriptions (a patient of the portal may save its own) and binds none.
    for (let i = 0; i < 40; i++) {
      await repository.create(ctx, subscription(`Communication?subject=Patient/flood-${i}&status=completed`));
    }
    const bound = await repository.create(ctx, subscription('Communication?subject=Patient/bound'));
    const off = await repository.create(ctx, subscription('Communication?subject=Patient/off', 'off'));
    const { executor, subscriptionsRead } = countingExecutor();
    const cache = new ActiveSubscriptionCache(executor, repository.registry);

    const active = await cache.forType('Communication', [bound.id as string, off.id as string]);
    expect(active.map((s) => s.id)).toEqual([bound.id]);
    expect(active[0].parsed.resourceType).toBe('Communication');
    expect(await cache.forType('Task', [bound.id as string])).toEqual([]);
    // The announcements to other processes need only the types, which the database answers.
    expect([...(await cache.watchedTypes())]).toEqual(['Communication']);
    expect(subscriptionsRead()).toBeLessThanOrEqual(2);

    // A Subscription written anywhere drops what was loaded; the next round reads the bound ones again.
    await repository.update(ctx, { ...(bound as Subscription), status: 'off' });
    cache.invalidate();
    expect(await cache.forType('Communication', [bound.id as string])).toEqual([]);
    expect(await cache.watchedTypes()).toEqual(new Set(['Communication']));
    expect(subscriptionsRead()).toBeLessThanOrEqual(3);
  });
});
