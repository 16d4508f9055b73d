import type { SqlExecutor } from '../storage/database';

/**
 * What one kind of batched read selects: the current row's columns and the columns of a check
 * that rides on the same statement (readPrecondition.ts), whose parameters differ per read.
 */
export interface BatchedReadShape {
  /** Part of the prepared statement's name: one per shape, never per call. */
  readonly name: string;
  /** The row's select list for a table alias (`r.`). */
  rowColumns(alias: string): string;
  /** Select-list items, each aliased; `param(i)` is the SQL of the read's i-th check parameter. */
  checkColumns(param: (index: number) => string): string;
  /** How many check parameters each read passes. */
  readonly checkParamCount: number;
}

/** One read: a current row by type and id, with its check parameters (all text). */
export interface BatchedRead {
  resourceType: string;
  id: string;
  checkParams: readonly string[];
}

interface Pending extends BatchedRead {
  resolve(row: Record<string, unknown>): void;
  reject(error: unknown): void;
}

interface Queue {
  shape: BatchedReadShape;
  /** The batch statement of the shape, built once. */
  sql: string;
  waiting: Pending[];
}

/** The statement reading a batch of `shape`: one text array parameter per key column. */
function batchStatement(shape: BatchedReadShape): string {
  const checks = Array.from({ length: shape.checkParamCount }, (_, i) => `p${i}`);
  const keyColumns = ['resource_type', 'id', ...checks];
  return `SELECT k.batch_position, ${shape.rowColumns('r.')}, ${shape.checkColumns((i) => `k.p${i}`)}
            FROM unnest(${keyColumns.map((_, i) => `$${i + 1}::text[]`).join(', ')})
                 WITH ORDINALITY AS k(${keyColumns.join(', ')}, batch_position)
            LEFT JOIN resources r ON r.resource_type = k.resource_type AND r.id = k.id`;
}

/**
 * Reads by id that arrive in the same turn of the event loop go to the database together, in one
 * statement (`unnest` of the keys, `LEFT JOIN` of the current rows), sent when the turn is over
 * (`setImmediate`): the requests a turn parsed are one batch, and a read alone is sent as soon as the
 * turn that brought it ends — batching adds no wait. A batch does not wait for the ones before it to
 * answer: on native PostgreSQL they are pipelined (storage/pipelinedConnections.ts), so the backend
 * takes the next batch as soon as it is done with one. The round trip — a socket write and the
 * wake-ups of a backend and of this process, which on these machines cost more than the lookup
 * itself — is paid once per batch instead of once per read (issue 20). At most `maxInFlight`
 * batches are out at once; reads that arrive meanwhile go together when one answers.
 *
 * One statement is one snapshot, so each read sees what it would have seen alone, and its check
 * columns are judged on its own row only. If a batch of several fails, each of its reads runs
 * alone, so that one read's failure is never another's.
 */
export class ReadBatcher {
  private readonly queues = new Map<string, Queue>();
  private inFlight = 0;
  private gathering = false;

  constructor(
    private readonly db: SqlExecutor,
    private readonly options: { maxInFlight: number; maxBatch: number } = { maxInFlight: 8, maxBatch: 64 },
  ) {}

  /** The read's row: the current row's columns (null when there is none) and the check columns. */
  read(shape: BatchedReadShape, read: BatchedRead): Promise<Record<string, unknown>> {
    if (read.checkParams.length !== shape.checkParamCount) {
      return Promise.reject(new Error(`${shape.name} takes ${shape.checkParamCount} check parameters`));
    }
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(shape.name);
      if (!queue) {
        queue = { shape, sql: batchStatement(shape), waiting: [] };
        this.queues.set(shape.name, queue);
      }
      queue.waiting.push({
        resourceType: read.resourceType,
        id: read.id,
        checkParams: read.checkParams,
        resolve,
        reject,
      });
      this.gather();
    });
  }

  /** Sends what this turn of the event loop brought once the turn is over. */
  private gather(): void {
    if (this.gathering) return;
    this.gathering = true;
    setImmediate(() => {
      this.gathering = false;
      this.pump();
    });
  }

  private pump(): void {
    for (const queue of this.queues.values()) {
      while (queue.waiting.length > 0 && this.inFlight < this.options.maxInFlight) {
        const batch = queue.waiting.splice(0, this.options.maxBatch);
        this.inFlight++;
        void this.send(queue, batch).finally(() => {
          this.inFlight--;
          this.pump();
        });
      }
    }
  }

  private async send(queue: Queue, batch: Pending[]): Promise<void> {
    let rows: Record<string, unknown>[];
    try {
      rows = await this.select(queue, batch);
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      else await Promise.all(batch.map((read) => this.send(queue, [read])));
      return;
    }
    // One row per read (the keys are joined to a primary key), found by its ordinality.
    const byPosition: (Record<string, unknown> | undefined)[] = [];
    for (const row of rows) byPosition[Number(row.batch_position) - 1] = row;
    for (let i = 0; i < batch.length; i++) {
      const row = byPosition[i];
      if (row) batch[i].resolve(row);
      else batch[i].reject(new Error(`The batched read of ${batch[i].resourceType}/${batch[i].id} answered no row`));
    }
  }

  private select(queue: Queue, batch: readonly Pending[]): Promise<Record<string, unknown>[]> {
    const arrays: string[][] = [[], []];
    for (let i = 0; i < queue.shape.checkParamCount; i++) arrays.push([]);
    for (const read of batch) {
      arrays[0].push(read.resourceType);
      arrays[1].push(read.id);
      for (let i = 0; i < read.checkParams.length; i++) arrays[i + 2].push(read.checkParams[i]);
    }
    return this.db.query(queue.sql, arrays, { prepareAs: `read_batch_${queue.shape.name}` });
  }
}
