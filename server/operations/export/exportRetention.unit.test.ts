import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryStorage } from '../../binary';
import type { Database } from '../../storage/database';
import { openDatabase } from '../../storage/openDatabase';
import { ExportJobStore, exportRetentionSeconds } from './exportJobStore';
import { collectExpiredExports } from './exportRetention';
import { exportFile, exportFolder } from './exportRunner';

describe('export retention', () => {
  let db: Database;
  let store: ExportJobStore;
  let storage: BinaryStorage;
  // PGlite kept in memory cannot load the btree_gist extension the migrations need: use a folder.
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-export-retention-'));

  beforeAll(async () => {
    db = await openDatabase({ dataDir: join(dataDir, 'db') });
    store = new ExportJobStore(db);
    storage = new BinaryStorage(join(dataDir, 'binary'));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A job with one NDJSON file on disk, finished (or still running) `ageSeconds` ago. */
  async function job(ageSeconds: number, finished = true): Promise<string> {
    const created = await store.create({
      projectId: randomUUID(),
      loginId: randomUUID(),
      requestUrl: 'http://x/$export',
    });
    if (!created) throw new Error('the job was refused');
    const file = exportFile(created.id, 'Patient');
    await storage.commit(await storage.stage('{"resourceType":"Patient"}\n', 1000), file.folder, file.name);
    if (finished) await store.complete(created.id, [{ type: 'Patient', url: 'http://x/Patient.ndjson', count: 1 }]);
    await db.query(`UPDATE bulk_export_jobs SET updated = now() - make_interval(secs => $2) WHERE id = $1`, [
      created.id,
      ageSeconds,
    ]);
    return created.id;
  }
  const folderExists = (id: string) => existsSync(join(dataDir, 'binary', exportFolder(id)));

  it('removes a finished job and its files once its retention has passed, and keeps younger ones', async () => {
    const expired = await job(exportRetentionSeconds + 60);
    const young = await job(exportRetentionSeconds - 600);
    const running = await job(30, false);
    expect(folderExists(expired)).toBe(true);

    expect(await collectExpiredExports(store, storage, exportRetentionSeconds)).toBeGreaterThanOrEqual(1);
    expect(await store.get(expired)).toBeUndefined();
    expect(folderExists(expired)).toBe(false);
    for (const kept of [young, running]) {
      expect(await store.get(kept)).toBeDefined();
      expect(folderExists(kept)).toBe(true);
    }
    // Nothing left to do: a second sweep removes nothing.
    expect(await collectExpiredExports(store, storage, exportRetentionSeconds)).toBe(0);
  });

  it('removes an active job whose process stopped long ago, and more jobs than one statement takes', async () => {
    const abandoned = await job(exportRetentionSeconds + 5, false);
    const many = await Promise.all(Array.from({ length: 120 }, () => job(exportRetentionSeconds + 5)));
    expect(await collectExpiredExports(store, storage, exportRetentionSeconds)).toBe(121);
    expect(await store.get(abandoned)).toBeUndefined();
    expect(many.filter(folderExists)).toEqual([]);
  });
});
