import { describe, expect, it } from 'vitest';
import { isFull, takeToken, type TokenBucket } from './tokenBucket';

describe('token bucket', () => {
  const rule = { perSecond: 20, burst: 50 };
  const start = Date.parse('2026-12-01T08:00:00Z');

  /** Takes `count` tokens at `now`: how many were given, and the bucket after. */
  function takeMany(bucket: TokenBucket | undefined, now: number, count: number) {
    let given = 0;
    let waitMs = 0;
    for (let i = 0; i < count; i++) {
      const taken = takeToken(bucket, now, rule);
      bucket = taken.bucket;
      if (taken.waitMs === 0) given++;
      else waitMs = taken.waitMs;
    }
    return { given, bucket: bucket as TokenBucket, waitMs };
  }

  it('gives a burst at once, then refuses, saying how long until the next token', () => {
    const { given, bucket, waitMs } = takeMany(undefined, start, 60);
    expect(given).toBe(50);
    expect(waitMs).toBe(50);
    expect(takeToken(bucket, start + 20, rule).waitMs).toBe(30);
  });

  it('refills at the sustained rate, never above the burst', () => {
    let { bucket } = takeMany(undefined, start, 50);
    // A second later: 20 more, not 21.
    const second = takeMany(bucket, start + 1_000, 25);
    expect(second.given).toBe(20);
    bucket = second.bucket;
    // A long pause fills it to the burst, no more.
    expect(takeMany(bucket, start + 3_600_000, 60).given).toBe(50);
  });

  it('sustains the rate: one token every 50 ms once empty', () => {
    let { bucket } = takeMany(undefined, start, 50);
    for (let step = 1; step <= 100; step++) {
      const taken = takeToken(bucket, start + step * 50, rule);
      expect(taken.waitMs).toBe(0);
      bucket = taken.bucket;
      expect(takeToken(bucket, start + step * 50, rule).waitMs).toBeGreaterThan(0);
    }
  });

  it('refills nothing for a clock that went back', () => {
    const { bucket } = takeMany(undefined, start, 50);
    expect(takeToken(bucket, start - 60_000, rule).waitMs).toBe(50);
  });

  it('is full again once it had the time to refill', () => {
    const { bucket } = takeMany(undefined, start, 50);
    expect(isFull(bucket, start + 2_000, rule)).toBe(false);
    expect(isFull(bucket, start + 2_500, rule)).toBe(true);
  });
});
