import { isFull, takeToken, type TokenBucket, type TokenBucketRule } from './tokenBucket';

/**
 * How fast each person publishes FHIRcast events on this process: a token bucket per publisher.
 * Every event is stored, announced to every process and sent to every socket of its topic, so a
 * client posting as fast as it can would cost every process for as long as it kept going.
 */
export class FhircastPublishRates {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly rule: TokenBucketRule,
    /** The clock rates are counted by (tests move it). */
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one event of `publisher`: undefined when it may be published, else the seconds to wait (1 at least). */
  take(publisher: string): number | undefined {
    const { bucket, waitMs } = takeToken(this.buckets.get(publisher), this.now(), this.rule);
    this.buckets.set(publisher, bucket);
    return waitMs === 0 ? undefined : Math.max(1, Math.ceil(waitMs / 1000));
  }

  /** Forgets the publishers whose bucket is full again (a new one would be the same): the hub's sweep. */
  sweep(): void {
    const now = this.now();
    for (const [publisher, bucket] of this.buckets) {
      if (isFull(bucket, now, this.rule)) this.buckets.delete(publisher);
    }
  }

  /** Publishers remembered (those who published within the time their bucket takes to fill). */
  get size(): number {
    return this.buckets.size;
  }
}
