import type { BinaryStorage } from '../../binary';
import type { ExportJobStore } from './exportJobStore';
import { exportFolder } from './exportRunner';

/**
 * Removes the jobs past their retention and their NDJSON files: the row first, so a download that
 * races the sweep finds no job (404) rather than a job whose file is half gone. Answers how many
 * jobs went. Several server processes may sweep at once; the store hands each job to one of them.
 */
export async function collectExpiredExports(
  store: ExportJobStore,
  storage: BinaryStorage,
  retentionSeconds: number,
  /** Stops the sweep between jobs' batches (the server is closing). */
  signal?: AbortSignal,
): Promise<number> {
  let removed = 0;
  for (;;) {
    if (signal?.aborted) return removed;
    const ids = await store.removeExpired(retentionSeconds);
    for (const id of ids) await storage.removeAll(exportFolder(id));
    removed += ids.length;
    if (ids.length === 0) return removed;
  }
}
