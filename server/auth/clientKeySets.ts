import { createLocalJWKSet, errors as joseErrors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { fetchStoredJson, StoredUrlFetchError } from '../net/storedUrlFetch';

/**
 * The public keys a ClientApplication signs its assertions with (`private_key_jwt`, RFC 7523),
 * fetched from its `jwksUri`. A project admin stores that URL, so it is fetched under the outbound
 * address rule with a time and size limit (server/net/storedUrlFetch.ts), never by jose's own
 * remote key set, and every way the fetch can fail — refused address, closed port, timeout, a
 * status other than 200, an answer that is not a key set — is one KeySetUnavailable.
 */

/** The client's key set could not be had; `reason` is for the server's log only. */
export class KeySetUnavailable extends Error {
  constructor(readonly reason: string) {
    super("The client's key set could not be fetched");
  }
}

interface Entry {
  fetchedAt: number;
  keys: ReturnType<typeof createLocalJWKSet>;
}

export interface ClientKeySetOptions {
  /** `host:port` entries an internal jwksUri may name (BOT_FETCH_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** A key set is used this long before it is fetched again (as jose's remote set: 10 minutes). */
  maxAgeMs?: number;
  /** A key id not in the set fetches it again, at most this often (jose's: 30 seconds). */
  cooldownMs?: number;
  /** Key sets kept; the oldest is forgotten first. */
  maxEntries?: number;
}

export class ClientKeySets {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();

  constructor(private readonly options: ClientKeySetOptions) {}

  /** What jwtVerify needs to find the key of an assertion signed by the client at `jwksUri`. */
  keyFinder(jwksUri: string): JWTVerifyGetKey {
    return async (header, token) => {
      let entry = this.fresh(jwksUri) ?? (await this.load(jwksUri));
      try {
        return await this.keyOf(entry, header, token);
      } catch (error) {
        // A key the client has just added: the set is fetched again, unless that was moments ago.
        if (error instanceof joseErrors.JWKSNoMatchingKey && Date.now() - entry.fetchedAt >= this.cooldownMs) {
          entry = await this.load(jwksUri);
          return this.keyOf(entry, header, token);
        }
        throw error;
      }
    };
  }

  private get cooldownMs(): number {
    return this.options.cooldownMs ?? 30_000;
  }

  /** The key for the assertion; a set whose members cannot be used as keys counts as no set. */
  private async keyOf(entry: Entry, ...args: Parameters<JWTVerifyGetKey>) {
    try {
      return await entry.keys(...args);
    } catch (error) {
      if (error instanceof joseErrors.JWKSInvalid) throw new KeySetUnavailable(error.message);
      throw error;
    }
  }

  private fresh(jwksUri: string): Entry | undefined {
    const entry = this.entries.get(jwksUri);
    if (!entry || Date.now() - entry.fetchedAt > (this.options.maxAgeMs ?? 10 * 60_000)) return undefined;
    return entry;
  }

  /** Fetches the set once however many assertions wait for it. */
  private load(jwksUri: string): Promise<Entry> {
    let pending = this.loading.get(jwksUri);
    if (!pending) {
      pending = this.fetch(jwksUri).finally(() => this.loading.delete(jwksUri));
      this.loading.set(jwksUri, pending);
    }
    return pending;
  }

  private async fetch(jwksUri: string): Promise<Entry> {
    let body: unknown;
    try {
      body = await fetchStoredJson(jwksUri, { allowedHosts: this.options.allowedHosts });
    } catch (error) {
      throw new KeySetUnavailable(error instanceof StoredUrlFetchError ? error.reason : (error as Error).message);
    }
    let keys: Entry['keys'];
    try {
      keys = createLocalJWKSet(body as JSONWebKeySet);
    } catch (error) {
      throw new KeySetUnavailable((error as Error).message);
    }
    const entry = { fetchedAt: Date.now(), keys };
    this.entries.delete(jwksUri);
    this.entries.set(jwksUri, entry);
    const maxEntries = this.options.maxEntries ?? 500;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= maxEntries) break;
      this.entries.delete(oldest);
    }
    return entry;
  }
}
