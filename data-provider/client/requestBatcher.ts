import type { Bundle, BundleEntry, OperationOutcome } from '@medplum/fhirtypes';
import { notFound, serverError } from '../outcomes/outcomeCatalogue';
import { isOperationOutcome } from '../outcomes/outcomePredicates';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';

export interface RequestBatcherOptions {
  /** How long to collect GETs before sending them (ms). */
  delay: number;
  /** Sends one GET on its own. */
  sendOne: (url: string, signal: AbortSignal | undefined) => Promise<unknown>;
  /** POSTs a `batch` Bundle to the FHIR base and returns the `batch-response`. */
  sendBatch: (bundle: Bundle) => Promise<Bundle>;
}

interface QueuedGet {
  url: string;
  /** The URL relative to the FHIR base, as a batch entry names it. */
  relativeUrl: string;
  signal?: AbortSignal;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Collects the GETs issued within a short window and sends them as one `batch` Bundle, so that a
 * screen that reads ten things costs one round trip. A lone GET goes out on its own.
 */
export class RequestBatcher {
  private queue: QueuedGet[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: RequestBatcherOptions) {}

  get pending(): number {
    return this.queue.length;
  }

  enqueue(url: string, relativeUrl: string, signal?: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        // Still queued: it never leaves. Already sent in a batch: only this caller stops waiting.
        this.queue = this.queue.filter((queued) => queued !== entry);
        reject(signal?.reason);
      };
      const settle =
        <V>(done: (value: V) => void) =>
        (value: V): void => {
          signal?.removeEventListener('abort', onAbort);
          done(value);
        };
      const entry: QueuedGet = { url, relativeUrl, signal, resolve: settle(resolve), reject: settle(reject) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(entry);
      this.timer ??= setTimeout(() => void this.flush(), this.options.delay);
    });
  }

  /** Sends what is queued now. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const entries = this.queue;
    this.queue = [];
    if (entries.length === 0) return;
    if (entries.length === 1) {
      const [only] = entries;
      await this.options.sendOne(only.url, only.signal).then(only.resolve, only.reject);
      return;
    }
    let response: Bundle;
    try {
      response = await this.options.sendBatch({
        resourceType: 'Bundle',
        type: 'batch',
        entry: entries.map((entry) => ({ request: { method: 'GET', url: entry.relativeUrl } })),
      });
    } catch (error) {
      for (const entry of entries) entry.reject(error);
      return;
    }
    entries.forEach((entry, index) => settleFromBatchEntry(entry, response.entry?.[index]));
  }
}

/** A batch-response entry carries its own status: each caller gets its own answer or error. */
function settleFromBatchEntry(queued: QueuedGet, entry: BundleEntry | undefined): void {
  if (!entry) {
    queued.reject(
      new OperationOutcomeError(serverError(`The batch response has no entry for ${queued.relativeUrl}`), 502),
    );
    return;
  }
  const status = Number.parseInt(entry.response?.status ?? '', 10);
  if (status >= 200 && status < 300) {
    queued.resolve(entry.resource);
    return;
  }
  const outcome: OperationOutcome | undefined =
    entry.response?.outcome ?? (isOperationOutcome(entry.resource) ? entry.resource : undefined);
  const effectiveStatus = Number.isNaN(status) ? 500 : status;
  queued.reject(
    new OperationOutcomeError(
      outcome ?? (effectiveStatus === 404 ? notFound() : serverError(`HTTP ${effectiveStatus}`)),
      effectiveStatus,
    ),
  );
}
