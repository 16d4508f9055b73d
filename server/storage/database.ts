/** The one storage interface: PGlite and native PostgreSQL both implement it and run the same SQL. */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database extends SqlExecutor {
  readonly kind: DatabaseKind;
  /** Runs `work` in one transaction: any throw rolls back everything it wrote. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons (migrations only; no parameters). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
