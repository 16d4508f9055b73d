import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bundle, OperationOutcome, Patient } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../config/serverConfig';
import { freePort } from '../../tests/integration/freePort';
import { signIn } from '../../tests/integration/signIn';
import { createServerRuntime, type ServerRuntime } from '../serverRuntime';
import { throwawayDatabase } from './throwawayDatabase.test-support';

/**
 * The attack: a member sends searches whose statements run for minutes (here `:contains` with
 * `_total=accurate`), each holding one of the server's database connections, until no request of
 * anyone gets one. The statement is made to take far longer than the server's 1 s timeout, on any
 * machine, by holding a lock on the table it reads (search_string) until it has been answered: the
 * database counts a lock wait as the statement's time, as it does reading rows.
 */
const database = throwawayDatabase('hearth_attack');
const { name } = database;
const adminPassword = 'timeout-admin-password-1';
const costly = 'Patient?name:contains=zz&_total=accurate';

describe('a search running past DATABASE_STATEMENT_TIMEOUT_MS (native PostgreSQL)', () => {
  let runtime: ServerRuntime | undefined;
  let dataDir: string;
  let fhirBase: string;
  let token: string;

  const call = async <T = unknown>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fhirBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      // Without a timeout the search would wait for the lock as long as the test holds it.
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    await database.create();
    dataDir = mkdtempSync(join(tmpdir(), 'hearth-timeout-'));
    const port = await freePort();
    const env = {
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}/`,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SEED: 'none',
      ADMIN_PASSWORD: adminPassword,
      WEB_ROOT: join(dataDir, 'no-web-app'),
    };
    // A first start (default timeout) loads the definitions, so that no start-up step of the
    // server under test depends on how fast this machine writes them.
    await (await createServerRuntime(loadServerConfig(env))).close();
    runtime = await createServerRuntime(loadServerConfig({ ...env, DATABASE_STATEMENT_TIMEOUT_MS: '1000' }));
    await runtime.app.listen({ port, host: '127.0.0.1' });
    fhirBase = `http://127.0.0.1:${port}/fhir/R4/`;
    token = (await signIn(`http://127.0.0.1:${port}/`, 'admin@example.com', adminPassword)).access_token;
  }, 300_000);

  afterAll(async () => {
    await runtime?.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 422 too-costly instead of holding the connections, fails a transaction Bundle with it, and keeps answering', async () => {
    const patient = (await call<Patient>('POST', 'Patient', { resourceType: 'Patient', name: [{ family: 'Buzzard' }] }))
      .body;
    await database.withClient(async (holder) => {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE search_string IN ACCESS EXCLUSIVE MODE');
      try {
        // More costly searches at once than the server has connections (10).
        const answers = await Promise.all(Array.from({ length: 12 }, () => call<OperationOutcome>('GET', costly)));
        for (const answer of answers) {
          expect(answer.status).toBe(422);
          const [issue] = answer.body.issue ?? [];
          expect(issue).toMatchObject({ severity: 'error', code: 'too-costly' });
          expect(issue.details?.text).toMatch(/^The request was stopped after 1 second of database work\./);
          expect(issue.details?.text).toContain('_total=none');
          expect(JSON.stringify(answer.body)).not.toMatch(/search_string|SELECT|canceling|at .*\.ts/);
        }
        // None of the server's connections is still waiting: the database cancelled every statement.
        const { rows } = await holder.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
          [name],
        );
        expect(rows).toEqual([{ waiting: 0 }]);

        // A transaction whose conditional create runs such a search fails as a whole, with that outcome.
        const bundle = await call<OperationOutcome>('POST', '', {
          resourceType: 'Bundle',
          type: 'transaction',
          entry: [
            {
              resource: { resourceType: 'Patient', identifier: [{ system: 'urn:test', value: name }] },
              request: { method: 'POST', url: 'Patient' },
            },
            {
              resource: { resourceType: 'Patient', name: [{ family: 'Buzzard' }] },
              request: { method: 'POST', url: 'Patient', ifNoneExist: 'name:contains=zz' },
            },
          ],
        } satisfies Bundle);
        expect(bundle.status).toBe(422);
        expect(bundle.body.issue?.[0]).toMatchObject({
          code: 'too-costly',
          expression: ['Bundle.entry[1]'],
        });

        // Other requests are answered meanwhile.
        expect((await call('GET', `Patient/${patient.id}`)).status).toBe(200);
        const written = await call('GET', `Patient?identifier=urn:test|${name}&_total=accurate`);
        expect(written).toMatchObject({ status: 200, body: { total: 0 } });
      } finally {
        await holder.query('ROLLBACK');
      }
    });
    // Once the search is cheap again it is answered as before.
    expect(await call('GET', costly)).toMatchObject({ status: 200, body: { total: 1 } });
  });
});
