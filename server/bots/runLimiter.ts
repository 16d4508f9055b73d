/**
 * At most `limit` tasks at a time; the others wait in order. Bots each get a worker with its own
 * heap, so an unbounded number of simultaneous runs could exhaust the server's memory.
 */
export class RunLimiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('The run limit must be a positive whole number');
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; only when none waits is it given back.
      if (next) next();
      else this.running--;
    }
  }
}
