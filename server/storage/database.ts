/** The one storage interface: PGlite and native PostgreSQL both implement it and run the same SQL. */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]>;
}

export interface QueryOptions {
  /**
   * Names a statement whose text never changes and which runs on most requests: native PostgreSQL
   * then parses and plans it once per connection instead of on every call (a read by id spent most
   * of the database's time there). Never for text built per call: each name is kept per connection.
   */
  prepareAs?: string;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database extends SqlExecutor {
  readonly kind: DatabaseKind;
  /** Runs `work` in one transaction: any throw rolls back everything it wrote. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Native PostgreSQL only: for primary-key lookups of the keys in a parameter array, sent by
   * fhir/readBatcher.ts. Connections of their own, on which statements are pipelined (sent without
   * waiting for the ones before them: storage/pipelinedConnections.ts) and prepared statements always
   * run with their generic plan: such a statement's best plan never depends on the parameters'
   * values, and PostgreSQL would otherwise plan it again on every execution (its custom plan for a
   * one-element array looks ten times cheaper than the generic plan, so it never switches: ~130 µs
   * of planning per call). Never for searches, whose plans must see the values, nor for
   * transactions (statements of other callers run in between).
   */
  readonly keyLookups?: SqlExecutor;
  /**
   * Maintenance only (migrations, ANALYZE): runs several statements separated by semicolons (no
   * parameters) without the statement timeout, since on a large database one of them may take minutes.
   */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Native PostgreSQL only (LISTEN): calls `handler` with the payload of every NOTIFY on `channel`,
   * from any process on the database (this one included); answers the function that stops listening.
   */
  listen?(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Embedded only: the bytes the database itself holds in this process (PGlite's WebAssembly
   * memory, which only grows), so the process's memory can be reported without it (issue 20).
   */
  memoryBytes?(): number;
  /** Native PostgreSQL only (NOTIFY): `payload` must stay under 8000 bytes. */
  notify?(channel: string, payload: string): Promise<void>;
}
