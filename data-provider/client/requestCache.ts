export interface CacheTags {
  /** The FHIR resource type the cached GET was about, so that writes to the type can invalidate it. */
  resourceType?: string;
  /** A search (`{Type}?…`) rather than a read of one resource. */
  search?: boolean;
}

interface CacheEntry<T> extends CacheTags {
  value: T;
  storedAt: number;
}

/**
 * A least-recently-used cache of GET answers whose entries expire `maxAge` ms after they were
 * stored. Uses Date.now so that expiry follows the (possibly faked) clock.
 */
export class RequestCache<T> {
  private readonly entries = new Map<string, CacheEntry<T>>();

  constructor(
    private readonly maxSize: number,
    private readonly maxAge: number,
  ) {}

  get enabled(): boolean {
    return this.maxAge > 0 && this.maxSize > 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (Date.now() - entry.storedAt >= this.maxAge) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-inserting moves the key to the end of the Map's order: the most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: T, tags: CacheTags = {}): void {
    if (!this.enabled) return;
    this.entries.delete(key);
    this.entries.set(key, { ...tags, value, storedAt: Date.now() });
    while (this.entries.size > this.maxSize) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  delete(key: string, onlyIf?: T): void {
    if (onlyIf !== undefined && this.entries.get(key)?.value !== onlyIf) return;
    this.entries.delete(key);
  }

  deleteWhere(matches: (tags: CacheTags, key: string) => boolean): void {
    for (const [key, entry] of [...this.entries]) {
      if (matches(entry, key)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
