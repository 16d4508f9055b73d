import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../storage/database';
import { openDatabase } from '../../storage/openDatabase';
import { ExportJobStore, staleAfterSeconds } from './exportJobStore';

describe('ExportJobStore', () => {
  let db: Database;
  let store: ExportJobStore;
  const job = { projectId: 'p1', loginId: 'l1', requestUrl: 'http://localhost/fhir/R4/$export' };
  /** A new job (each of its own login and project unless told: the limits are tested on their own). */
  const create = async (fields: Partial<typeof job> = {}) => {
    const created = await store.create({ ...job, loginId: randomUUID(), projectId: randomUUID(), ...fields });
    if (!created) throw new Error('the job was refused');
    return created;
  };
  const makeStale = (id: string) =>
    db.query(`UPDATE bulk_export_jobs SET updated = now() - make_interval(secs => $2) WHERE id = $1`, [
      id,
      staleAfterSeconds + 5,
    ]);

  // PGlite kept in memory cannot load the btree_gist extension the migrations need: use a folder.
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-export-jobs-'));

  beforeAll(async () => {
    db = await openDatabase({ dataDir });
    store = new ExportJobStore(db);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a job active while it reports progress, then completes it with its output', async () => {
    const created = await create();
    expect(created).toMatchObject({ status: 'active', output: [], stale: false, progress: 'Queued' });
    expect(await store.progress(created.id, 'Exporting Patient')).toBe(true);
    const output = [{ type: 'Patient', url: 'http://localhost/fhir/R4/Binary/b1', count: 2 }];
    expect(await store.complete(created.id, output)).toBe(true);
    expect(await store.get(created.id)).toMatchObject({ status: 'completed', output, stale: false });
  });

  it('stops a cancelled job from reporting progress or completing', async () => {
    const created = await create();
    await store.cancel(created.id);
    expect(await store.progress(created.id, 'Exporting Patient')).toBe(false);
    expect(await store.complete(created.id, [])).toBe(false);
    await store.fail(created.id, 'late failure');
    expect((await store.get(created.id))?.status).toBe('cancelled');
  });

  it('records a failure with its message', async () => {
    const created = await create();
    await store.fail(created.id, 'disk full');
    expect(await store.get(created.id)).toMatchObject({ status: 'error', error: 'disk full' });
  });

  it('calls an active job stale once it has not reported progress for a while', async () => {
    const created = await create();
    await makeStale(created.id);
    expect((await store.get(created.id))?.stale).toBe(true);
    await store.progress(created.id, 'alive again');
    expect((await store.get(created.id))?.stale).toBe(false);
    expect(await store.get('missing')).toBeUndefined();
  });

  it('refuses a second active job of one login, and more than the limit of one project', async () => {
    const loginId = randomUUID();
    const projectId = randomUUID();
    const first = await create({ loginId, projectId });
    expect(await store.create({ ...job, loginId, projectId })).toBeUndefined();
    // Finished, cancelled or stale jobs do not count.
    await store.complete(first.id, []);
    const second = await create({ loginId, projectId });
    await makeStale(second.id);
    await create({ loginId, projectId });
    // The project: perLogin 1, perProject 3 by default; other logins fill it.
    await create({ projectId });
    await create({ projectId });
    expect(await store.create({ ...job, projectId, loginId: randomUUID() })).toBeUndefined();
    expect(await store.create({ ...job, loginId: randomUUID() }, { perLogin: 1, perProject: 1 })).toBeDefined();
  });
});
