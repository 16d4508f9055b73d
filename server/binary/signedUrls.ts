import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SqlExecutor } from '../storage/database';
import { readState } from '../storage/serverState';

/** How long a signed attachment URL is valid (at least; see `signedUrlWindowSeconds`). */
export const signedUrlLifetimeSeconds = 60 * 60;

/**
 * Expiry times are rounded up to this step, so one Binary keeps the same URL for a few minutes:
 * browsers cache the image and the client's signed-URL cache can reuse it.
 */
export const signedUrlWindowSeconds = 5 * 60;

const binaryIdPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/** The query parameters of a signed URL. */
export const expiresParam = 'Expires';
export const signatureParam = 'Signature';

/**
 * `<base>storage/<binaryId>/<versionId>` is where signed content is served. The URL names the
 * version it was signed for: a link handed to someone who could read the Binary then must not
 * serve content written later, which they may not be allowed to see (a file replaced, or moved to
 * another patient's record).
 */
export function storagePath(baseUrl: string, binaryId: string, versionId: string): string {
  return `${baseUrl}storage/${encodeURIComponent(binaryId)}/${encodeURIComponent(versionId)}`;
}

/** The HMAC-SHA256 of the Binary id, its version id and the expiry (seconds since the epoch), base64url. */
export function storageSignature(key: Buffer, binaryId: string, versionId: string, expires: number): string {
  return createHmac('sha256', key).update(`storage/${binaryId}/${versionId}\n${expires}`).digest('base64url');
}

/** When a URL signed at `nowMs` expires: at least the lifetime ahead, rounded up to the window. */
export function expiryFor(nowMs: number, lifetimeSeconds = signedUrlLifetimeSeconds): number {
  const earliest = Math.ceil(nowMs / 1000) + lifetimeSeconds;
  return Math.ceil(earliest / signedUrlWindowSeconds) * signedUrlWindowSeconds;
}

/** A signed absolute URL of one Binary version's content that works without a bearer token until it expires. */
export function signStorageUrl(
  key: Buffer,
  baseUrl: string,
  binaryId: string,
  versionId: string,
  nowMs: number,
  lifetimeSeconds = signedUrlLifetimeSeconds,
): string {
  const expires = expiryFor(nowMs, lifetimeSeconds);
  const url = new URL(storagePath(baseUrl, binaryId, versionId));
  url.searchParams.set(expiresParam, String(expires));
  url.searchParams.set(signatureParam, storageSignature(key, binaryId, versionId, expires));
  return url.toString();
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

/** Checks the query of a `/storage/{binaryId}/{versionId}` request (the signature first, then the expiry). */
export function checkStorageSignature(
  key: Buffer,
  binaryId: string,
  versionId: string,
  expires: unknown,
  signature: unknown,
  nowMs: number,
): SignatureCheck {
  if (!binaryIdPattern.test(binaryId) || !binaryIdPattern.test(versionId)) return 'invalid';
  if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
  const expected = Buffer.from(storageSignature(key, binaryId, versionId, Number(expires)));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return Number(expires) * 1000 <= nowMs ? 'expired' : 'valid';
}

/** The Binary id of a signed storage URL of this server (valid or not), else undefined. */
export function binaryIdOfStorageUrl(baseUrl: string, url: string): string | undefined {
  const prefix = `${baseUrl}storage/`;
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  let id: string;
  try {
    id = decodeURIComponent(rest.split(/[?#/]/)[0] ?? '');
  } catch {
    // A malformed escape (`storage/%`) is no storage URL of ours; written as it came, never a 500.
    return undefined;
  }
  return binaryIdPattern.test(id) ? id : undefined;
}

const keyName = 'binaryUrlSigningKey';

/**
 * The HMAC key for signed URLs: made on first start and kept in the database, so that every
 * server process on one database verifies the URLs any of them signed. Concurrent first starts
 * agree on whichever key was inserted first.
 */
export async function loadUrlSigningKey(db: SqlExecutor): Promise<Buffer> {
  const existing = await readState<string>(db, keyName);
  if (existing) return Buffer.from(existing, 'base64url');
  await db.query('INSERT INTO server_state (key, value) VALUES ($1, $2::jsonb) ON CONFLICT (key) DO NOTHING', [
    keyName,
    JSON.stringify(randomBytes(32).toString('base64url')),
  ]);
  const stored = await readState<string>(db, keyName);
  if (!stored) throw new Error('Could not store the signed-URL key');
  return Buffer.from(stored, 'base64url');
}

/** Signs Binary URLs for answers, with the server's key and clock. */
export class UrlSigner {
  constructor(
    private readonly key: Buffer,
    readonly baseUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  sign(binaryId: string, versionId: string): string {
    return signStorageUrl(this.key, this.baseUrl, binaryId, versionId, this.now());
  }

  check(binaryId: string, versionId: string, expires: unknown, signature: unknown): SignatureCheck {
    return checkStorageSignature(this.key, binaryId, versionId, expires, signature, this.now());
  }
}
