import { abortableDelay, isAbortError } from './abortableDelay';
import { NoAnswerError } from './noAnswerError';

/** The subset of `fetch` the client uses; injectable so tests and other transports (XHR) can stand in. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface RetryPolicy {
  maxRetries: number;
  retryDelay: number;
  /** Called when the first try fails without an HTTP answer (the client raises its offline event). */
  onFirstNetworkFailure?: (error: unknown) => void;
}

/**
 * Fetches, trying again after 5xx answers and network failures. The last 5xx answer is returned
 * (its body says what went wrong); after the last network failure a NoAnswerError is thrown (the
 * browser's error its cause). Aborts are never retried.
 */
export async function fetchWithRetry(
  fetchFn: FetchLike,
  url: string,
  init: RequestInit,
  policy: RetryPolicy,
): Promise<Response> {
  const signal = init.signal ?? undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetchFn(url, init);
      if (response.status < 500 || attempt >= policy.maxRetries) return response;
      await discardBody(response);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (isAbortError(error)) throw error;
      if (attempt === 0) policy.onFirstNetworkFailure?.(error);
      if (attempt >= policy.maxRetries) throw error instanceof TypeError ? new NoAnswerError(error) : error;
    }
    await abortableDelay(policy.retryDelay, signal);
  }
}

/**
 * Frees the connection of an answer that will not be read. Not awaited: cancelling one branch of
 * a tee'd (cloned) body only settles once the other branch is cancelled too.
 */
export async function discardBody(response: Response): Promise<void> {
  try {
    response.body?.cancel().catch(() => undefined);
  } catch {
    // Already consumed or locked: nothing left to free.
  }
}
