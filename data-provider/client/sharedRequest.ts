/**
 * One request whose answer several callers wait for (a cached GET). Each caller may abort its own
 * wait; the request itself is aborted only when every caller that could abort has aborted and no
 * caller without a signal is waiting, so one closed screen does not fail another's read.
 */
export class SharedRequest<T> {
  readonly promise: Promise<T>;
  private readonly controller = new AbortController();
  private waiting = 0;
  private pinned = false;
  private state: { settled: false } | { settled: true; ok: boolean; value?: T } = { settled: false };

  constructor(start: (signal: AbortSignal) => Promise<T>) {
    this.promise = start(this.controller.signal);
    this.promise.then(
      (value) => {
        this.state = { settled: true, ok: true, value };
      },
      () => {
        this.state = { settled: true, ok: false };
      },
    );
  }

  static resolved<T>(value: T): SharedRequest<T> {
    const request = new SharedRequest<T>(() => Promise.resolve(value) as Promise<T>);
    request.state = { settled: true, ok: true, value };
    return request;
  }

  /** The answer, when it has arrived successfully. */
  get value(): T | undefined {
    return this.state.settled && this.state.ok ? this.state.value : undefined;
  }

  join(signal?: AbortSignal): Promise<T> {
    if (!signal) {
      this.pinned = true;
      return this.promise;
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiting--;
        reject(signal.reason);
        if (!this.pinned && this.waiting === 0 && !this.state.settled) this.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
