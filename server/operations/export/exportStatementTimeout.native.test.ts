import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryStorage } from '../../binary';
import { Repository, type RequestContext } from '../../fhir/repository';
import { definitionSearchParameters } from '../../serverRuntime';
import type { Database } from '../../storage/database';
import { migrate } from '../../storage/migrations';
import { openPostgresDatabase } from '../../storage/postgresDatabase';
import { throwawayDatabase } from '../../storage/throwawayDatabase.test-support';
import { ExportJobStore } from './exportJobStore';
import { runExport, type ExportEnvironment, type ExportScope } from './exportRunner';

/**
 * A bulk export's statements may legitimately run long (offset pages near the end of a type of 1M
 * resources, the scan that lists the types): they run without the request connections' statement
 * timeout. Each statement is made to outlast the 50 ms timeout 20 times over by a lock on the
 * resources table, held until it has waited that long, so the test does not depend on the machine.
 */
const database = throwawayDatabase('hearth_export_timeout');
const timeoutMs = 50;
const ctx: RequestContext = { projectId: 'export-project', author: { reference: 'Practitioner/exporter' } };

describe('bulk export under the statement timeout (native PostgreSQL)', () => {
  let db: Database;
  let env: ExportEnvironment;
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-export-timeout-'));

  beforeAll(async () => {
    await database.create();
    db = await openPostgresDatabase(database.url, { statementTimeoutMs: timeoutMs });
    await migrate(db);
    const repository = new Repository(db, definitionSearchParameters());
    for (const family of ['Ames', 'Brook']) {
      await repository.create(ctx, { resourceType: 'Patient', name: [{ family }] });
    }
    env = {
      repository,
      storage: BinaryStorage.inDataDir(dataDir),
      store: new ExportJobStore(db),
      fhirBase: 'http://127.0.0.1/fhir/R4/',
    };
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs an export while its first read of the resources waits 20 times the timeout for a lock. */
  async function exportBehindALock(scope: ExportScope, types?: string[]) {
    const job = await env.store.create({ projectId: ctx.projectId, loginId: `login-${Math.random()}`, requestUrl: '' });
    await database.behindTableLock('resources', 20 * timeoutMs, () =>
      runExport(env, { jobId: job!.id, scope, types, ctx, sharedProjectId: 'system' }, new AbortController().signal),
    );
    return env.store.get(job!.id);
  }

  it('lists the types to export past the timeout', async () => {
    expect(await exportBehindALock({ level: 'system' })).toMatchObject({
      status: 'completed',
      output: [{ type: 'Patient', count: 2 }],
    });
  });

  it('reads its pages past the timeout', async () => {
    expect(await exportBehindALock({ level: 'system' }, ['Patient'])).toMatchObject({
      status: 'completed',
      output: [{ type: 'Patient', count: 2 }],
    });
  });

  it("lists a patient-level export's patients past the timeout", async () => {
    expect(await exportBehindALock({ level: 'patient' }, ['Patient'])).toMatchObject({
      status: 'completed',
      output: [{ type: 'Patient', count: 2 }],
    });
  });
});
