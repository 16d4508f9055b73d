/** What a request that got no answer says, in place of the browser's own words. */
export const NO_ANSWER_MESSAGE = 'The server could not be reached (no connection)';

/**
 * The error the client throws when a request got no HTTP answer after its retries. Shown raw,
 * the browser's own error read "Failed to fetch" (Chromium), "NetworkError when attempting to fetch
 * resource." (Firefox) or "Load failed" (Safari) in search boxes and dialogs, which says nothing to
 * a clinician. A TypeError still, as `fetch`'s own is, so code that tells network failures apart by
 * type keeps working; the browser's error is its `cause`.
 */
export class NoAnswerError extends TypeError {
  constructor(cause: unknown) {
    super(NO_ANSWER_MESSAGE, { cause });
    this.name = 'NoAnswerError';
  }
}
