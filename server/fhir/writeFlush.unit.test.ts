import type { Bundle, Observation, Patient } from '@medplum/fhirtypes';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database, SqlExecutor } from '../storage/database';
import { processBundle } from './bundleProcessor';
import { Repository, type RequestContext } from './repository';

const database = embeddedTestDatabase('write-flush');
const ctx: RequestContext = { projectId: 'project-flush', author: { reference: 'Practitioner/author' } };
let db: Database;
let repository: Repository;
/** Every statement the repository sent, in order. */
const statements: string[] = [];

/** The database, recording what is sent to it (inside transactions too). */
function recording(inner: Database): Database {
  const record = (executor: SqlExecutor): SqlExecutor => ({
    query: (sql, params, options) => {
      statements.push(sql);
      return executor.query(sql, params, options);
    },
  });
  return {
    kind: inner.kind,
    query: record(inner).query,
    transaction: (work) => inner.transaction((tx) => work(record(tx))),
    exec: (sql) => inner.exec(sql),
    close: () => inner.close(),
  };
}

const indexDeletes = () => statements.filter((sql) => /DELETE FROM search_/.test(sql));

async function referencesOf(resourceType: string, id: string): Promise<string[]> {
  const rows = await db.query<{ reference: string }>(
    'SELECT reference FROM search_reference WHERE resource_type = $1 AND resource_id = $2 ORDER BY code',
    [resourceType, id],
  );
  return rows.map((row) => row.reference);
}

beforeAll(() => {
  db = database();
  repository = new Repository(recording(db), definitionSearchParameters());
});

beforeEach(() => {
  statements.length = 0;
});

describe('flushing writes', { timeout: 30_000 }, () => {
  it("deletes no index rows for a transaction Bundle's creates, whose ids are new, and indexes them all", async () => {
    const bundle: Bundle = {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: 'urn:uuid:5b0f7c55-0000-4000-8000-000000000001',
          resource: { resourceType: 'Patient', name: [{ family: 'Fresh' }] },
          request: { method: 'POST', url: 'Patient' },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'weight' },
            subject: { reference: 'urn:uuid:5b0f7c55-0000-4000-8000-000000000001' },
          },
          request: { method: 'POST', url: 'Observation' },
        },
      ],
    };
    const answer = await processBundle(
      { repository, registry: repository.registry, ctx, fhirBase: 'fhir/R4/' },
      bundle,
    );
    expect(answer.entry?.map((entry) => entry.response?.status)).toEqual(['201', '201']);
    expect(statements.some((sql) => /INSERT INTO search_reference/.test(sql))).toBe(true);
    expect(indexDeletes()).toEqual([]);

    const patientId = (answer.entry?.[0].resource as Patient).id as string;
    const observationId = (answer.entry?.[1].resource as Observation).id as string;
    expect(await referencesOf('Observation', observationId)).toContain(`Patient/${patientId}`);
  });

  it("replaces a resource's index rows when it is updated: the old values are gone, the new ones found", async () => {
    const first = await repository.create(ctx, {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'pulse' },
      subject: { reference: 'Patient/before' },
    } as Observation);
    statements.length = 0;
    await repository.update(ctx, { ...(first as Observation), subject: { reference: 'Patient/after' } });
    expect(indexDeletes().length).toBeGreaterThan(0);
    expect(await referencesOf('Observation', first.id as string)).toEqual(['Patient/after', 'Patient/after']);
  });

  it('deletes the index rows of a resource created with an id its caller chose (it may have had rows before)', async () => {
    const id = 'chosen-id-flush-1';
    await repository.transaction((session) =>
      session.create(ctx, { resourceType: 'Patient', name: [{ family: 'Chosen' }] } as Patient, { id }),
    );
    expect(indexDeletes().length).toBeGreaterThan(0);
  });

  it("finds a resource's index rows through a hash index on resource_id", async () => {
    const indexes = await db.query<{ name: string; method: string }>(
      `SELECT c.relname AS name, am.amname AS method FROM pg_class c JOIN pg_am am ON am.oid = c.relam
        WHERE c.relname LIKE 'search\\_%\\_resource\\_idx' ORDER BY c.relname`,
    );
    expect(indexes.map((index) => index.method)).toEqual(Array(8).fill('hash'));
    // The planner uses it to remove a resource's rows (an update), not a scan of the whole table.
    await db.query('SET enable_seqscan = off');
    try {
      const plan = await db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN DELETE FROM search_token t USING unnest($1::text[], $2::text[]) AS k(resource_type, id)
          WHERE t.resource_type = k.resource_type AND t.resource_id = k.id`,
        ['{Observation}', '{x}'],
      );
      expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('search_token_resource_idx');
    } finally {
      await db.query('RESET enable_seqscan');
    }
  });
});
