import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { fhircastStore, leaseSeconds } from './fhircastStore';

let db: Database;
// PGlite kept in memory cannot load the btree_gist extension the migrations need: use a folder.
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-fhircast-'));

beforeAll(async () => {
  db = await openDatabase({ dataDir });
}, 120_000);

afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('fhircastStore subscriptions', { timeout: 30_000 }, () => {
  it('opens a subscription within the lease the confirmation announces, and not after it', async () => {
    const subscription = {
      projectId: 'project-a',
      topic: 'Practitioner/p1\ntopic',
      events: ['Patient-open'],
      loginId: 'login-1',
    };
    await fhircastStore.addSubscription(db, { ...subscription, id: 'fresh' });
    await fhircastStore.addSubscription(db, { ...subscription, id: 'stale' });
    // An endpoint handed out a lease and a minute ago: its URL is no longer a key to the topic.
    await db.query(
      `UPDATE fhircast_subscriptions SET created = now() - make_interval(secs => $1::float8) WHERE id = 'stale'`,
      [leaseSeconds + 60],
    );

    const fresh = await fhircastStore.subscription(db, 'fresh');
    expect(fresh).toMatchObject({ ...subscription, id: 'fresh' });
    const expires = fresh?.expires ?? 0;
    expect(Math.abs(expires - (Date.now() + leaseSeconds * 1000))).toBeLessThan(60_000);
    expect(await fhircastStore.subscription(db, 'stale')).toBeUndefined();
  });
});
