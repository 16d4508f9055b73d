import type { QueryOptions, SqlExecutor } from '../storage/database';

/**
 * A condition checked by the very statement that reads a row, so that it costs no round trip of
 * its own. The cached caller of a read by id rides on it (auth/callerCache.ts): the caller's stamp
 * (its Login's version, the callers epoch) and the row come from one snapshot, and the row is used
 * only if the stamp is the one the caller was resolved with.
 */
export interface ReadPrecondition {
  /** Part of the prepared statement's name: one per kind of precondition, never per call. */
  readonly name: string;
  /** Select-list items, each aliased, whose placeholders start at `$first`. */
  columns(first: number): string;
  readonly params: readonly unknown[];
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
    // LEFT JOIN from one row: the check columns come back even when the resource does not exist.
    const rows = await this.db.query<T & Record<string, unknown>>(
      `SELECT ${columns('r.')}, ${p.columns(3)}
         FROM (SELECT 1) AS one LEFT JOIN resources r ON r.resource_type = $1 AND r.id = $2`,
      [resourceType, id, ...p.params],
      { prepareAs: `read_current_${shape}_if_${p.name}` },
    );
    const row = rows[0];
    if (!row || !p.holds(row)) {
      this.state = 'failed';
      throw new PreconditionFailed();
    }
    this.state = 'held';
    return row.version_id === null ? undefined : row;
  }
}
