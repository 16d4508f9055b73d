import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccessGuard } from '../auth/accessGuard';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { migrate } from '../storage/migrations';
import { openPostgresDatabase } from '../storage/postgresDatabase';
import { reindexRoutes } from './reindexRoutes';

/**
 * `$reindex` without resource types lists every type stored, one scan of all resources (long at
 * 1M resources on a cold cache): it runs without the request connections' statement timeout. The
 * scan is made to outlast the 50 ms timeout 20 times over by a lock held on the resources table.
 */
const nativeUrl = process.env.HEARTH_TEST_DATABASE_URL as string;
const name = `hearth_reindex_timeout_${process.pid}_${Date.now()}`;
const url = (() => {
  const at = new URL(nativeUrl);
  at.pathname = `/${name}`;
  return at.toString();
})();
const timeoutMs = 50;

async function connect(connectionString: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}

describe('$reindex under the statement timeout (native PostgreSQL)', () => {
  let db: Database;
  let repository: Repository;

  beforeAll(async () => {
    const admin = await connect(nativeUrl);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    db = await openPostgresDatabase(url, { statementTimeoutMs: timeoutMs });
    await migrate(db);
    repository = new Repository(db, definitionSearchParameters());
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    const admin = await connect(nativeUrl);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('lists the stored types past the timeout', async () => {
    const ctx: RequestContext = {
      projectId: 'system',
      author: { reference: 'Practitioner/admin' },
      access: new AccessGuard(
        { projectId: 'system', sharedProjectId: 'system', superAdmin: true },
        repository.registry,
      ),
    };
    await repository.create(ctx, { resourceType: 'Patient', name: [{ family: 'Reindexed' }] });
    const app = Fastify();
    await app.register(reindexRoutes, { repository, baseUrl: 'http://127.0.0.1/', contextOf: () => ctx });
    const holder = await connect(url);
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE resources IN ACCESS EXCLUSIVE MODE');
      const answer = app.inject({ method: 'POST', url: '/fhir/R4/$reindex' });
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
      const response = await answer;
      expect(response.statusCode).toBe(202);
      expect(response.json()).toMatchObject({ issue: [{ details: { text: 'Reindexing Patient' } }] });
      // The job itself finishes before the database closes.
      const jobId = String(response.headers['content-location']).split('/').pop() as string;
      await vi.waitFor(
        async () => expect(await repository.read('AsyncJob', jobId)).toMatchObject({ status: 'completed' }),
        {
          timeout: 20_000,
          interval: 50,
        },
      );
    } finally {
      await holder.end();
      await app.close();
    }
  });
});
