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
 * Reads by id that arrive while an earlier one is at the database go to it together, in one
 * statement (`unnest` of the keys, `LEFT JOIN` of the current rows). A read that finds nothing in
 * flight goes at once, alone: batching adds no wait at low load. Under load the round trip — a
 * socket write and the wake-ups of a database backend and of this process, which on these
 * machines cost more than the lookup itself — is paid once per batch instead of once per read
 * (issue 20). One statement in flight gave the largest batches and the most reads per second; so
 * that a slow read (a very large resource) does not hold up the others, another batch may start
 * once the oldest in flight has taken `stallMs`, up to `maxInFlight`.
 *
 * One statement is one snapshot, so each read sees what it would have seen alone, and its check
 * columns are judged on its own row only. If a batch of several fails, each of its reads runs
 * alone, so that one read's failure is never another's.
 */
export class ReadBatcher {
  private readonly queues = new Map<string, Queue>();
  /** When each batch in flight was sent (performance.now()), oldest first. */
  private readonly sentAt: number[] = [];
  private stallTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: SqlExecutor,
    private readonly options: { stallMs: number; maxInFlight: number; maxBatch: number } = {
      stallMs: 2,
      maxInFlight: 4,
      maxBatch: 64,
    },
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
      this.pump();
    });
  }

  /** Whether another batch may be sent now: none in flight, or the oldest has stalled. */
  private maySend(now: number): boolean {
    if (this.sentAt.length === 0) return true;
    return this.sentAt.length < this.options.maxInFlight && now - this.sentAt[0] >= this.options.stallMs;
  }

  private pump(): void {
    const now = performance.now();
    for (const queue of this.queues.values()) {
      while (queue.waiting.length > 0 && this.maySend(now)) {
        const batch = queue.waiting.splice(0, this.options.maxBatch);
        this.sentAt.push(now);
        void this.send(queue, batch).finally(() => {
          this.sentAt.splice(this.sentAt.indexOf(now), 1);
          this.pump();
        });
      }
    }
    this.watchForStall();
  }

  /** While reads wait behind a batch, checks again when that batch would count as stalled. */
  private watchForStall(): void {
    if (this.stallTimer || this.sentAt.length === 0 || this.sentAt.length >= this.options.maxInFlight) return;
    let waiting = false;
    for (const queue of this.queues.values()) waiting ||= queue.waiting.length > 0;
    if (!waiting) return;
    const due = this.sentAt[0] + this.options.stallMs - performance.now();
    this.stallTimer = setTimeout(
      () => {
        this.stallTimer = undefined;
        this.pump();
      },
      Math.max(0, due),
    );
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
