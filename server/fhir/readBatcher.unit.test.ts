import type { Patient } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { definitionSearchParameters } from '../serverRuntime';
import type { SqlExecutor } from '../storage/database';
import { ReadBatcher, type BatchedReadShape } from './readBatcher';
import { Repository, type RequestContext } from './repository';

const database = embeddedTestDatabase('read-batcher');
const ctx: RequestContext = { projectId: 'project-batch', author: { reference: 'Practitioner/author' } };
const ids: string[] = [];

/** The row's id and name, and each read's own check parameter echoed back (as a caller's stamp would be). */
const shape: BatchedReadShape = {
  name: 'test_echo',
  rowColumns: (t) => `${t}id AS row_id, ${t}version_id, ${t}content #>> '{name,0,family}' AS family`,
  checkColumns: (param) => `${param(0)} AS echo`,
  checkParamCount: 1,
};

/**
 * The database, holding every statement's answer until `release` is called, and recording what
 * was sent: so that the test decides what is in flight when the next read arrives.
 */
function heldDatabase(inner: SqlExecutor, failWhen: (params: unknown[]) => boolean = () => false) {
  const sent: { sql: string; params: unknown[] }[] = [];
  const held: (() => void)[] = [];
  const executor: SqlExecutor = {
    query: async <T>(sql: string, params: unknown[] = []) => {
      sent.push({ sql, params });
      await new Promise<void>((resolve) => held.push(resolve));
      if (failWhen(params)) throw new Error('the statement failed');
      return inner.query<T>(sql, params);
    },
  };
  /** Lets every statement sent so far answer. */
  const release = async () => {
    for (const answer of held.splice(0)) answer();
    // Let the answers and the batches they start go through the event loop.
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { executor, sent, release };
}

beforeAll(async () => {
  const repository = new Repository(database(), definitionSearchParameters());
  await repository.transaction(async (session) => {
    for (const family of ['Ames', 'Bell', 'Cruz', 'Diaz']) {
      const patient = await session.create(ctx, { resourceType: 'Patient', name: [{ family }] } as Patient);
      ids.push(patient.id!);
    }
  });
});

/** Lets the current turn of the event loop end: the batcher sends what the turn brought. */
const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadBatcher', { timeout: 30_000 }, () => {
  it('sends a read alone as soon as the turn that brought it is over', async () => {
    const db = heldDatabase(database());
    const batcher = new ReadBatcher(db.executor);
    const row = batcher.read(shape, { resourceType: 'Patient', id: ids[0], checkParams: ['a'] });
    expect(db.sent).toHaveLength(0);
    await turnEnds();
    expect(db.sent).toHaveLength(1);
    expect(db.sent[0].params).toEqual([['Patient'], [ids[0]], ['a']]);
    await db.release();
    expect(await row).toMatchObject({ row_id: ids[0], family: 'Ames', echo: 'a' });
  });

  it('sends the reads of one turn together without waiting for the batch before, each answered with its own row and check', async () => {
    const db = heldDatabase(database());
    const batcher = new ReadBatcher(db.executor);
    const first = batcher.read(shape, { resourceType: 'Patient', id: ids[0], checkParams: ['first'] });
    await turnEnds();
    const together = [
      batcher.read(shape, { resourceType: 'Patient', id: ids[2], checkParams: ['c'] }),
      batcher.read(shape, { resourceType: 'Patient', id: 'missing-id', checkParams: ['gone'] }),
      batcher.read(shape, { resourceType: 'Patient', id: ids[1], checkParams: ['b'] }),
      // The same resource twice in one batch: two rows, one per read.
      batcher.read(shape, { resourceType: 'Patient', id: ids[2], checkParams: ['c again'] }),
      // Another type with the same id finds nothing.
      batcher.read(shape, { resourceType: 'Observation', id: ids[3], checkParams: ['other type'] }),
    ];
    await turnEnds();
    // The first batch has not answered: the second went anyway.
    expect(db.sent).toHaveLength(2);
    expect(db.sent[1].params[1]).toEqual([ids[2], 'missing-id', ids[1], ids[2], ids[3]]);
    expect(db.sent[1].params[2]).toEqual(['c', 'gone', 'b', 'c again', 'other type']);
    await db.release();
    expect(await first).toMatchObject({ row_id: ids[0], echo: 'first' });
    const rows = await Promise.all(together);
    expect(rows.map((row) => [row.row_id, row.family, row.echo])).toEqual([
      [ids[2], 'Cruz', 'c'],
      [null, null, 'gone'],
      [ids[1], 'Bell', 'b'],
      [ids[2], 'Cruz', 'c again'],
      [null, null, 'other type'],
    ]);
    expect(rows[1].version_id).toBeNull();
  });

  it('runs each read of a failed batch alone, so that only the failing read fails', async () => {
    // A statement holding the id "poison" fails, alone or with others.
    const db = heldDatabase(database(), (params) => (params[1] as string[]).includes('poison'));
    const batcher = new ReadBatcher(db.executor);
    const good = batcher.read(shape, { resourceType: 'Patient', id: ids[1], checkParams: ['y'] });
    const bad = batcher.read(shape, { resourceType: 'Patient', id: 'poison', checkParams: ['z'] });
    const alsoGood = batcher.read(shape, { resourceType: 'Patient', id: ids[3], checkParams: ['w'] });
    const badOutcome = bad.then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await turnEnds();
    expect(db.sent.map((statement) => statement.params[1])).toEqual([[ids[1], 'poison', ids[3]]]);
    await db.release(); // the batch fails; its three reads go out alone
    expect(db.sent.slice(1).map((statement) => statement.params[1])).toEqual([[ids[1]], ['poison'], [ids[3]]]);
    await db.release();
    expect(await good).toMatchObject({ family: 'Bell', echo: 'y' });
    expect(await alsoGood).toMatchObject({ family: 'Diaz', echo: 'w' });
    expect(await badOutcome).toBe('the statement failed');
  });

  it('holds reads while maxInFlight batches are out, and sends them together when one answers', async () => {
    const db = heldDatabase(database());
    const batcher = new ReadBatcher(db.executor, { maxInFlight: 2, maxBatch: 64 });
    const reads = [batcher.read(shape, { resourceType: 'Patient', id: ids[0], checkParams: ['1'] })];
    await turnEnds();
    reads.push(batcher.read(shape, { resourceType: 'Patient', id: ids[1], checkParams: ['2'] }));
    await turnEnds();
    reads.push(batcher.read(shape, { resourceType: 'Patient', id: ids[2], checkParams: ['3'] }));
    await turnEnds();
    reads.push(batcher.read(shape, { resourceType: 'Patient', id: ids[3], checkParams: ['4'] }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Two out is the most: the third and fourth wait however long they take.
    expect(db.sent.map((statement) => statement.params[2])).toEqual([['1'], ['2']]);
    await db.release();
    expect(db.sent.slice(2).map((statement) => statement.params[2])).toEqual([['3', '4']]);
    await db.release();
    expect((await Promise.all(reads)).map((row) => row.echo)).toEqual(['1', '2', '3', '4']);
  });

  it('cuts batches at maxBatch reads', async () => {
    const db = heldDatabase(database());
    const batcher = new ReadBatcher(db.executor, { maxInFlight: 8, maxBatch: 2 });
    const reads = ['1', '2', '3', '4', '5'].map((echo, i) =>
      batcher.read(shape, { resourceType: 'Patient', id: ids[i % ids.length], checkParams: [echo] }),
    );
    await turnEnds();
    expect(db.sent.map((statement) => statement.params[2])).toEqual([['1', '2'], ['3', '4'], ['5']]);
    await db.release();
    expect((await Promise.all(reads)).map((row) => row.family)).toEqual(['Ames', 'Bell', 'Cruz', 'Diaz', 'Ames']);
  });

  it('refuses a read whose check parameters do not fit its shape', async () => {
    const batcher = new ReadBatcher(database());
    await expect(batcher.read(shape, { resourceType: 'Patient', id: ids[0], checkParams: [] })).rejects.toThrow(
      'test_echo takes 1 check parameters',
    );
  });
});
