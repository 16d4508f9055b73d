/**
 * PGlite has a single connection; interleaving a transaction with other statements would run
 * them inside that transaction. Every call therefore waits its turn here.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    // Keep the chain alive whatever the outcome; the caller still sees the rejection.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
