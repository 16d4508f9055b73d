import { NoAnswerError } from '../../data-provider/client';

/** What the toasts say for a request that got no answer, in place of the browser's own words. */
export const NO_ANSWER_TEXT = 'The server could not be reached (no connection). Nothing typed is lost; try again.';

/**
 * Is this the error `fetch` throws when no answer came (Chromium "Failed to fetch", Firefox
 * "NetworkError when attempting to fetch resource.", Safari "Load failed", Node "fetch failed")?
 * Shown raw, a clinician read "Error — Failed to fetch" next to a message that was not sent.
 */
export function isNetworkFailure(error: unknown): boolean {
  return (
    error instanceof NoAnswerError ||
    (error instanceof TypeError && /^(Failed to fetch|NetworkError\b|Load failed$|fetch failed$)/.test(error.message))
  );
}
