import type { Resource } from '@medplum/fhirtypes';

/** Where one resource of a bulk bot run stands. */
export type BulkRunStatus =
  | { state: 'waiting' }
  | { state: 'running' }
  | { state: 'done'; summary: string }
  | { state: 'failed'; message: string }
  | { state: 'skipped'; message: string };

/**
 * How many runs are in flight at once. The server runs at most four bots per process; two keeps a
 * bulk run from taking every slot (subscription-triggered bots and other users share them).
 */
export const BULK_CONCURRENCY = 2;

/** At most this many characters of a bot's answer are shown per resource. */
const SUMMARY_LENGTH = 200;

/** A bot's answer in one line: text as is, an OperationOutcome by its issues, JSON compactly. */
export function summarizeBotResult(value: unknown): string {
  let text: string;
  if (value === undefined || value === null || value === '') text = 'OK';
  else if (typeof value === 'string') text = value;
  else if (isOperationOutcome(value)) {
    text =
      (value.issue ?? [])
        .map((issue) => issue.details?.text ?? issue.diagnostics ?? issue.code)
        .filter(Boolean)
        .join('; ') || 'OK';
  } else if (value instanceof Blob) text = `${value.size} bytes (${value.type || 'binary'})`;
  else if (isResource(value)) text = `${value.resourceType}${value.id ? `/${value.id}` : ''}`;
  else text = JSON.stringify(value);
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}

function isResource(value: unknown): value is Resource {
  return typeof value === 'object' && value !== null && typeof (value as Resource).resourceType === 'string';
}

function isOperationOutcome(value: unknown): value is {
  resourceType: 'OperationOutcome';
  issue?: { code?: string; diagnostics?: string; details?: { text?: string } }[];
} {
  return isResource(value) && value.resourceType === 'OperationOutcome';
}

/**
 * Runs `execute` for every id, `concurrency` at a time, reporting each one's status as it changes.
 * A failure is recorded for its resource and the others go on; once `signal` aborts, resources not
 * yet started are marked skipped (runs already on the server finish there).
 */
export async function runForEach(
  ids: readonly string[],
  execute: (id: string) => Promise<unknown>,
  report: (id: string, status: BulkRunStatus) => void,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<void> {
  let next = 0;
  async function worker(): Promise<void> {
    while (next < ids.length) {
      const id = ids[next++];
      if (options.signal?.aborted) {
        report(id, { state: 'skipped', message: 'Stopped before it ran' });
        continue;
      }
      report(id, { state: 'running' });
      try {
        report(id, { state: 'done', summary: summarizeBotResult(await execute(id)) });
      } catch (error) {
        report(id, { state: 'failed', message: (error as Error).message || String(error) });
      }
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency ?? BULK_CONCURRENCY, ids.length));
  await Promise.all(Array.from({ length: workers }, () => worker()));
}
