import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { PipelinedConnections } from './pipelinedConnections';

const url = process.env.HEARTH_TEST_DATABASE_URL as string;

async function terminate(pid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

describe('PipelinedConnections', () => {
  let connections: PipelinedConnections | undefined;
  afterEach(async () => connections?.close());

  it('keeps statements out together on one connection while it is not stalled, answered in order by one backend', async () => {
    connections = new PipelinedConnections({ connectionString: url }, { connections: 2, stallMs: 1_000 });
    const order: string[] = [];
    const slow = connections
      .query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.2)')
      .then((rows) => (order.push('slow'), rows[0].pid));
    const quick = connections
      .query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [], { prepareAs: 'pid_of_backend' })
      .then((rows) => (order.push('quick'), rows[0].pid));
    // Both are out at once, on one connection: the second was not held back until the first answered.
    expect(connections.unanswered()).toEqual([2, 0]);
    const [slowPid, quickPid] = await Promise.all([slow, quick]);
    expect(quickPid).toBe(slowPid);
    expect(order).toEqual(['slow', 'quick']);
    expect(connections.unanswered()).toEqual([0, 0]);
  });

  it('sends a statement to the other connection while the first holds one longer than stallMs', async () => {
    connections = new PipelinedConnections({ connectionString: url }, { connections: 2, stallMs: 20 });
    const slow = connections.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.5)');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const started = performance.now();
    const [quick] = await connections.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Answered long before the slow statement ended, by another backend.
    expect(performance.now() - started).toBeLessThan(400);
    const [stalled] = await slow;
    expect(quick.pid).not.toBe(stalled.pid);
  });

  it('keeps each statement its own: one that fails does not fail those sent around it', async () => {
    connections = new PipelinedConnections({ connectionString: url }, { connections: 1, stallMs: 1_000 });
    const results = await Promise.allSettled([
      connections.query('SELECT 1 AS n'),
      connections.query('SELECT 1 / 0 AS n'),
      connections.query('SELECT 3 AS n'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toContain('division by zero');
    expect((results[2] as PromiseFulfilledResult<unknown>).value).toEqual([{ n: 3 }]);
  });

  it('fails what a broken connection held, and opens a new one for the next statement', async () => {
    connections = new PipelinedConnections({ connectionString: url }, { connections: 1, stallMs: 1_000 });
    const [{ pid }] = await connections.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const held = connections.query('SELECT pg_sleep(2)').then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await terminate(pid);
    expect(await held).toContain('terminating connection');
    const [after] = await connections.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(after.pid).not.toBe(pid);
    expect(connections.unanswered()).toEqual([0]);
  });

  it('refuses statements once closed', async () => {
    connections = new PipelinedConnections({ connectionString: url });
    await connections.query('SELECT 1');
    await connections.close();
    await expect(connections.query('SELECT 1')).rejects.toThrow('The database is closed');
  });
});
