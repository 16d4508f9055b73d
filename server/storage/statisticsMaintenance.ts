import type { Database } from './database';

/**
 * Refreshes the planner's statistics after many writes. PGlite runs without autovacuum, so
 * without this an embedded database filled by an import keeps planning with empty statistics
 * (and picks full scans); on native PostgreSQL it just shortens the wait for autovacuum.
 */
export class StatisticsMaintenance {
  private writesSinceAnalyze = 0;
  private running = false;

  constructor(
    private readonly db: Database,
    private readonly everyWrites = 20_000,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Counts committed writes and starts a background ANALYZE when enough have piled up. */
  recordWrites(count: number): void {
    this.writesSinceAnalyze += count;
    if (this.writesSinceAnalyze < this.everyWrites || this.running) return;
    this.writesSinceAnalyze = 0;
    this.running = true;
    // exec: without the statement timeout, since ANALYZE of every table reads samples of each (minutes on a large cold database).
    this.db
      .exec('ANALYZE')
      .catch(this.onError)
      .finally(() => {
        this.running = false;
      });
  }
}
