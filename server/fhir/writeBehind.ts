import type { QueryOptions, SqlExecutor } from '../storage/database';

/**
 * A transaction's executor that can send writes without waiting for them: a transaction Bundle's
 * buffered versions are flushed in chunks while the server goes on preparing (validating,
 * indexing) the next entries, so the database and the server work at the same time instead of in
 * turn (issue 20).
 *
 * Everything stays in order: every other statement of the session, and `settle`, first waits for
 * all that was sent; the first failure is kept and thrown to whichever comes next (later sends are
 * then dropped, the transaction being lost anyway). `drain` must run before the transaction ends,
 * whatever happened: nothing may reach the connection after its COMMIT or ROLLBACK.
 */
export class WriteBehindExecutor implements SqlExecutor {
  private chain: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private failure: { error: unknown } | undefined;

  constructor(private readonly inner: SqlExecutor) {}

  /** Starts `work` after everything sent before it, without waiting for it. */
  send(work: (tx: SqlExecutor) => Promise<void>): void {
    this.inFlight++;
    this.chain = this.chain.then(async () => {
      try {
        if (!this.failure) await work(this.inner);
      } catch (error) {
        this.failure = { error };
      } finally {
        this.inFlight--;
      }
    });
  }

  /** Waits for everything sent; throws the first failure. */
  async settle(): Promise<void> {
    await this.drain();
    if (this.failure) throw this.failure.error;
  }

  /** Waits for everything sent, failed or not. */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await this.chain;
  }

  async query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<T[]> {
    if (this.inFlight > 0 || this.failure) await this.settle();
    return this.inner.query<T>(sql, params, options);
  }
}
