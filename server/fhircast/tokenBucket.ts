/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`; each request takes one. It lets
 * a client act in bursts (an app opening a patient sends a few events at once) while bounding what
 * it can do over time.
 */
export interface TokenBucketRule {
  perSecond: number;
  burst: number;
}

/** What a bucket holds (`tokens`, fractional) as of `at` (ms since 1970). */
export interface TokenBucket {
  tokens: number;
  at: number;
}

/** A bucket that has been left alone: full. */
export function fullBucket(rule: TokenBucketRule, now: number): TokenBucket {
  return { tokens: rule.burst, at: now };
}

/** The bucket as of `now`: refilled for the time since `at` (never for a clock that went back). */
export function refilled(bucket: TokenBucket, now: number, rule: TokenBucketRule): TokenBucket {
  const elapsedMs = Math.max(0, now - bucket.at);
  return {
    tokens: Math.min(rule.burst, bucket.tokens + (elapsedMs * rule.perSecond) / 1000),
    at: Math.max(now, bucket.at),
  };
}

/**
 * Takes one token at `now`: the bucket after it, and `waitMs` 0 when one was taken, else how long
 * until one will be there (nothing is taken then, so refused requests cost the client nothing more).
 */
export function takeToken(
  bucket: TokenBucket | undefined,
  now: number,
  rule: TokenBucketRule,
): { bucket: TokenBucket; waitMs: number } {
  const current = bucket ? refilled(bucket, now, rule) : fullBucket(rule, now);
  if (current.tokens >= 1) return { bucket: { ...current, tokens: current.tokens - 1 }, waitMs: 0 };
  return { bucket: current, waitMs: Math.ceil(((1 - current.tokens) * 1000) / rule.perSecond) };
}

/** Whether the bucket is full again at `now` (it can be forgotten: a new one would be the same). */
export function isFull(bucket: TokenBucket, now: number, rule: TokenBucketRule): boolean {
  return refilled(bucket, now, rule).tokens >= rule.burst;
}
