import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AccessGuard } from '../auth/accessGuard';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { migrate } from '../storage/migrations';
import { openPostgresDatabase } from '../storage/postgresDatabase';
import { throwawayDatabase } from '../storage/throwawayDatabase.test-support';
import { reindexRoutes } from './reindexRoutes';

/**
 * `$reindex` without resource types lists every type stored, one scan of all resources (long at
 * 1M resources on a cold cache): it runs without the request connections' statement timeout. The
 * scan is made to outlast the 50 ms timeout 20 times over by a lock held on the resources table.
 */
const database = throwawayDatabase('hearth_reindex_timeout');
const timeoutMs = 50;

describe('$reindex under the statement timeout (native PostgreSQL)', () => {
  let db: Database;
  let repository: Repository;

  beforeAll(async () => {
    await database.create();
    db = await openPostgresDatabase(database.url, { statementTimeoutMs: timeoutMs });
    await migrate(db);
    repository = new Repository(db, definitionSearchParameters());
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await database.drop();
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
    try {
      const response = await database.behindTableLock('resources', 20 * timeoutMs, () =>
        app.inject({ method: 'POST', url: '/fhir/R4/$reindex' }),
      );
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
      await app.close();
    }
  });
});
