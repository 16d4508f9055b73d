import { isResourceId } from '../fhir/resourceId';
import { binaryIdOfStorageUrl } from './signedUrls';

/** The Binary id an Attachment `url` points at (`Binary/{id}` or `<fhirBase>Binary/{id}`), if any. */
export function binaryIdOfAttachmentUrl(url: string, fhirBase: string): string | undefined {
  const relative = url.startsWith(fhirBase) ? url.slice(fhirBase.length) : url;
  if (!relative.startsWith('Binary/')) return undefined;
  const id = relative.slice('Binary/'.length);
  return isResourceId(id) ? id : undefined;
}

/**
 * Whether stored JSON text may need the answer hooks' Binary URL signing (an Attachment naming
 * `Binary/{id}`, or a Binary resource). False means presentBinaryUrls would change nothing.
 */
export function mayNameBinary(json: string): boolean {
  return json.includes('Binary');
}

/**
 * Only JSON-like data is walked (plain objects, and the null-prototype objects GraphQL answers are
 * made of): streams, Buffers and other class instances are left alone.
 */
function isPlainData(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Rewrites every `url` that the function maps to a new string, copying only the objects on the way
 * to a change (the input is never modified: answers may share objects with caches).
 */
function rewriteUrls<T>(value: T, rewrite: (url: string, owner: Record<string, unknown>) => string | undefined): T {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const next = rewriteUrls(item, rewrite);
      if (next !== item) {
        copy ??= [...value];
        copy[index] = next;
      }
    }
    return (copy ?? value) as T;
  }
  if (!isPlainData(value)) return value;
  const object = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  // `for…in` rather than Object.entries (every write and every answer is walked: no entry arrays);
  // plain data has no inherited enumerable keys.
  for (const key in object) {
    const item = object[key];
    let next: unknown = item;
    if (key === 'url' && typeof item === 'string') next = rewrite(item, object) ?? item;
    else if (typeof item === 'object' && item !== null) next = rewriteUrls(item, rewrite);
    if (next !== item) {
      copy ??= { ...object };
      copy[key] = next;
    }
  }
  return (copy ?? value) as T;
}

/**
 * The ids of the Binaries an answer would carry signed URLs for, each once: those Attachment URLs
 * point at (`Binary/{id}`), and Binary resources themselves (alone, or in Bundle entries, as
 * `withBinaryOwnUrls` finds them).
 */
export function referencedBinaryIds(value: unknown, fhirBase: string): string[] {
  const ids = new Set<string>();
  rewriteUrls(value, (url) => {
    const id = binaryIdOfAttachmentUrl(url, fhirBase);
    if (id) ids.add(id);
    return undefined;
  });
  withBinaryOwnUrls(value, (id) => {
    ids.add(id);
    return undefined;
  });
  return [...ids];
}

/** Signs one version of a Binary: `(binaryId, versionId) => url`. */
export type BinarySigner = (binaryId: string, versionId: string) => string;

/**
 * For answers: Attachment URLs of Binaries become signed absolute URLs that work without a token
 * (for `<img src>` and download links), and a Binary resource gets its own signed `url`. Only the
 * Binaries in `readable` (id → current version id) are signed: a signed URL is a read permission,
 * so an Attachment that names a Binary the caller may not read (another project's, one its policy
 * hides) keeps its url as written, and so does a Binary resource the answer merely carries — a
 * Bundle a caller stored with `{resourceType: 'Binary', id: <anyone's>}` in an entry is not one.
 * URLs are signed for the current version only.
 */
export function presentBinaryUrls<T>(
  value: T,
  fhirBase: string,
  sign: BinarySigner,
  readable: ReadonlyMap<string, string>,
): T {
  // Nothing readable to sign: the walk could change nothing (most answers have no Attachments).
  if (readable.size === 0) return value;
  const signed = rewriteUrls(value, (url) => {
    const id = binaryIdOfAttachmentUrl(url, fhirBase);
    const versionId = id ? readable.get(id) : undefined;
    return id && versionId ? sign(id, versionId) : undefined;
  });
  return withBinaryOwnUrls(signed, (id, ownVersion) => {
    const current = readable.get(id);
    // Only the current version, which the search found readable: an older version (a history
    // entry, a vread) has its content in the answer or at its `_history` address, and a version
    // named by a resource the answer merely carries proves nothing about the caller's rights.
    if (!current || (ownVersion !== undefined && ownVersion !== current)) return undefined;
    return sign(id, current);
  });
}

/**
 * Binary resources (alone, or in a Bundle) carry the signed URL of their content: `urlOf` answers
 * it for an id and the version the resource names, or undefined to leave the resource as it is.
 */
function withBinaryOwnUrls<T>(value: T, urlOf: (binaryId: string, versionId?: string) => string | undefined): T {
  if (value === null || typeof value !== 'object') return value;
  const resource = value as { resourceType?: unknown; id?: unknown; entry?: unknown; meta?: { versionId?: unknown } };
  if (resource.resourceType === 'Binary' && typeof resource.id === 'string') {
    const versionId = typeof resource.meta?.versionId === 'string' ? resource.meta.versionId : undefined;
    const url = urlOf(resource.id, versionId);
    return url === undefined ? value : { ...value, url };
  }
  if (resource.resourceType === 'Bundle' && Array.isArray(resource.entry)) {
    let changed = false;
    const entries = resource.entry.map((entry: { resource?: unknown }) => {
      const inner = entry?.resource;
      const next = withBinaryOwnUrls(inner, urlOf);
      if (next === inner) return entry;
      changed = true;
      return { ...entry, resource: next };
    });
    return changed ? { ...value, entry: entries } : value;
  }
  return value;
}

/**
 * For writes: a signed URL that came back from a client is stored as `Binary/{id}` again (signed
 * URLs expire; the stored form must not), and a Binary's own `url` is never stored.
 */
export function normalizeBinaryUrls<T>(value: T, baseUrl: string): T {
  const normalized = rewriteUrls(value, (url, owner) => {
    const id = binaryIdOfStorageUrl(baseUrl, url);
    if (!id) return undefined;
    return owner.resourceType === 'Binary' ? undefined : `Binary/${id}`;
  });
  return Array.isArray(normalized) ? (normalizePatchValues(normalized, baseUrl) as T) : normalized;
}

/** JSON Patch operations that set an `…/url` carry the URL as `value`, not under a `url` key. */
function normalizePatchValues(operations: unknown[], baseUrl: string): unknown[] {
  let copy: unknown[] | undefined;
  operations.forEach((operation, index) => {
    const candidate = operation as { op?: unknown; path?: unknown; value?: unknown } | null;
    if (
      typeof candidate?.path !== 'string' ||
      !candidate.path.endsWith('/url') ||
      typeof candidate.value !== 'string'
    ) {
      return;
    }
    const id = binaryIdOfStorageUrl(baseUrl, candidate.value);
    if (!id) return;
    copy ??= [...operations];
    copy[index] = { ...candidate, value: `Binary/${id}` };
  });
  return copy ?? operations;
}
