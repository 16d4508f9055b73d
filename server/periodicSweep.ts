import type { FastifyInstance } from 'fastify';

export interface PeriodicSweepOptions {
  /** Named in the log line of a failed sweep. */
  name: string;
  /** Time between the end of one sweep and the start of the next. */
  intervalMs: number;
  /**
   * The first sweep starts after this plus a random share of it (up to as much again). Soon after
   * start, so that a process restarted more often than `intervalMs` (deployments, a crash loop, a
   * laptop) still sweeps; not at once, so that the start and the first requests do not pay for it,
   * and processes started together do not all sweep together.
   */
  firstAfterMs: number;
}

/**
 * Runs `sweep` soon after the server starts and then every `intervalMs` until it closes. A sweep
 * never overlaps the one before it (the next is scheduled when one ends, however long it took); a
 * failure is logged and the sweep runs again next time. Closing aborts the running sweep's signal
 * and waits for it, so it never runs on a database that is being closed.
 */
export function startPeriodicSweep(
  app: FastifyInstance,
  sweep: (signal: AbortSignal) => Promise<unknown>,
  options: PeriodicSweepOptions,
): void {
  const stop = new AbortController();
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const schedule = (delayMs: number) => {
    timer = setTimeout(run, delayMs);
    // A pending sweep must not keep a process alive that has nothing else to do.
    timer.unref();
  };
  function run(): void {
    timer = undefined;
    running = sweep(stop.signal)
      .then(
        () => undefined,
        (error: unknown) => {
          if (!stop.signal.aborted) {
            console.error(`${options.name} failed:`, error instanceof Error ? error.message : error);
          }
        },
      )
      .finally(() => {
        running = undefined;
        if (!stop.signal.aborted) schedule(options.intervalMs);
      });
  }

  schedule(options.firstAfterMs + Math.random() * options.firstAfterMs);
  app.addHook('onClose', async () => {
    stop.abort();
    if (timer) clearTimeout(timer);
    await running;
  });
}
