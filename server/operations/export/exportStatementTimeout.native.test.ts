import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BinaryStorage } from '../../binary';
import { Repository, type RequestContext } from '../../fhir/repository';
import { definitionSearchParameters } from '../../serverRuntime';
import type { Database } from '../../storage/database';
import { migrate } from '../../storage/migrations';
import { openPostgresDatabase } from '../../storage/postgresDatabase';
import { ExportJobStore } from './exportJobStore';
import { runExport, type ExportEnvironment, type ExportScope } from './exportRunner';

/**
 * A bulk export's statements may legitimately run long (offset pages near the end of a type of 1M
 * resources, the scan that lists the types): they run without the request connections' statement
 * timeout. Each statement is made to outlast the 50 ms timeout 20 times over by a lock on the
 * resources table, held until it has waited that long, so the test does not depend on the machine.
 */
const nativeUrl = process.env.HEARTH_TEST_DATABASE_URL as string;
const name = `hearth_export_timeout_${process.pid}_${Date.now()}`;
const url = (() => {
  const at = new URL(nativeUrl);
  at.pathname = `/${name}`;
  return at.toString();
})();
const timeoutMs = 50;
const ctx: RequestContext = { projectId: 'export-project', author: { reference: 'Practitioner/exporter' } };

async function connect(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}

describe('bulk export under the statement timeout (native PostgreSQL)', () => {
  let db: Database;
  let env: ExportEnvironment;
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-export-timeout-'));

  beforeAll(async () => {
    const admin = await connect(nativeUrl);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    db = await openPostgresDatabase(url, { statementTimeoutMs: timeoutMs });
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
    const admin = await connect(nativeUrl);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs an export while its first read of the resources waits 20 times the timeout for a lock. */
  async function exportBehindALock(scope: ExportScope, types?: string[]) {
    const job = await env.store.create({ projectId: ctx.projectId, loginId: `login-${Math.random()}`, requestUrl: '' });
    const holder = await connect(url);
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE resources IN ACCESS EXCLUSIVE MODE');
      const running = runExport(
        env,
        { jobId: job!.id, scope, types, ctx, sharedProjectId: 'system' },
        new AbortController().signal,
      );
      await vi.waitFor(
        async () => {
          const { rows } = await holder.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND wait_event = 'relation'`,
            [name],
          );
          expect(rows).toHaveLength(1);
        },
        { timeout: 20_000, interval: 20 },
      );
      await new Promise((resolve) => setTimeout(resolve, 20 * timeoutMs));
      await holder.query('COMMIT');
      await running;
    } finally {
      await holder.end();
    }
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
