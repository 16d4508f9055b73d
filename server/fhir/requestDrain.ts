import type { IncomingMessage } from 'node:http';

/**
 * Reads and discards what the client is still sending (bounded in time): closing on a client that
 * is still uploading makes it see a broken pipe instead of the answer.
 */
export function drainRequest(raw: IncomingMessage, timeoutMs = 30_000): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    raw.once('end', done);
    raw.once('close', done);
    raw.once('error', done);
    raw.resume();
  });
}
