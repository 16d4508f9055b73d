import type { QueryOptions, SqlExecutor } from '../storage/database';
import type { BatchedReadShape, ReadBatcher } from './readBatcher';

/**
 * A condition checked by the very statement that reads a row, so that it costs no round trip of
 * its own. The cached caller of a read by id rides on it (auth/callerCache.ts): the caller's stamp
 * (its Login's version, the callers epoch) and the row come from one snapshot, and the row is used
 * only if the stamp is the one the caller was resolved with.
 */
export interface ReadPrecondition {
  /**
   * Part of the prepared statement's name: one per kind of precondition, never per call. Two
   * preconditions with one name have the same columns and as many parameters.
   */
  readonly name: string;
  /** Select-list items, each aliased; `param(i)` is the SQL of `params[i]`. */
  columns(param: (index: number) => string): string;
  readonly params: readonly string[];
  /** Judges the check columns of the answer; called once. */
  holds(row: Record<string, unknown>): boolean;
}

/** The precondition did not hold: the read's answer was thrown away. */
export class PreconditionFailed extends Error {
  constructor() {
    super('The read precondition no longer held');
  }
}

interface Row {
  version_id: string;
}

/** Batch shapes by row shape and precondition name: one object for every read of a kind. */
const batchShapes = new Map<string, Map<string, BatchedReadShape>>();

function batchShape(shape: string, columns: (alias: string) => string, p: ReadPrecondition): BatchedReadShape {
  let byPrecondition = batchShapes.get(shape);
  if (!byPrecondition) batchShapes.set(shape, (byPrecondition = new Map()));
  let batch = byPrecondition.get(p.name);
  if (!batch) {
    // A precondition's name stands for its columns and its parameter count (see `name`).
    batch = {
      name: `${shape}_if_${p.name}`,
      rowColumns: columns,
      checkColumns: p.columns,
      checkParamCount: p.params.length,
    };
    byPrecondition.set(p.name, batch);
  }
  return batch;
}

/**
 * The executor of a read-only session opened with a precondition: nothing reaches the database
 * until the first row read has proven the precondition (`readRow`), so no answer can be built on
 * an unchecked caller, whatever the session's code does first.
 */
export class PreconditionGate implements SqlExecutor {
  private state: 'unchecked' | 'held' | 'failed' = 'unchecked';

  constructor(
    private readonly db: SqlExecutor,
    private readonly precondition: ReadPrecondition,
    /** The first row read goes through it: reads by id that arrive together share a round trip. */
    private readonly batcher: ReadBatcher,
  ) {}

  /** Whether the precondition was checked and held. */
  get held(): boolean {
    return this.state === 'held';
  }

  async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]> {
    if (this.state !== 'held') throw new PreconditionFailed();
    return this.db.query<T>(sql, params, options);
  }

  /**
   * The current row of a resource (undefined when there is none) read together with the
   * precondition's columns; throws PreconditionFailed when it did not hold.
   */
  async readRow<T extends Row>(
    resourceType: string,
    id: string,
    /** The row's select list for a table alias (`r.`). */
    columns: (alias: string) => string,
    /** Names the select list, for the prepared statement's name. */
    shape: string,
  ): Promise<T | undefined> {
    if (this.state === 'failed') throw new PreconditionFailed();
    const p = this.precondition;
    const row = (await this.batcher.read(batchShape(shape, columns, p), {
      resourceType,
      id,
      checkParams: p.params,
    })) as T & Record<string, unknown>;
    if (!p.holds(row)) {
      this.state = 'failed';
      throw new PreconditionFailed();
    }
    this.state = 'held';
    return row.version_id === null ? undefined : row;
  }
}
