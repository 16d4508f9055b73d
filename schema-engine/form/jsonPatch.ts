import type { Resource } from '@medplum/fhirtypes';
import type { JsonPatchOperation } from './formTypes';

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && deepEqual(a[key], b[key]));
  }
  return false;
}

function diff(before: unknown, after: unknown, path: string, out: JsonPatchOperation[]): void {
  if (deepEqual(before, after)) return;
  if (isPlainObject(before) && isPlainObject(after)) {
    for (const key of Object.keys(before)) {
      if (!(key in after)) out.push({ op: 'remove', path: `${path}/${escapePointer(key)}` });
    }
    for (const [key, value] of Object.entries(after)) {
      const child = `${path}/${escapePointer(key)}`;
      if (!(key in before)) out.push({ op: 'add', path: child, value });
      else diff(before[key], value, child, out);
    }
    return;
  }
  // Arrays of the same length are patched item by item; otherwise replaced whole (indexes shift).
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((item, i) => diff(item, after[i], `${path}/${i}`, out));
    return;
  }
  out.push({ op: 'replace', path, value: after });
}

/**
 * The JSON Patch (RFC 6902) that turns `original` into `updated`, guarded by a `test` of
 * `meta.versionId` so a change made by someone else in between fails with a conflict instead of
 * being overwritten (app-spec §5). `meta.lastUpdated` and `meta.versionId` themselves are never patched.
 */
export function createJsonPatch(original: Resource, updated: Resource): JsonPatchOperation[] {
  const operations: JsonPatchOperation[] = [];
  const strip = (resource: Resource): Resource => {
    if (!resource.meta) return resource;
    const { versionId: _v, lastUpdated: _l, ...meta } = resource.meta;
    return { ...resource, meta } as Resource;
  };
  diff(strip(original), strip(updated), '', operations);
  const versionId = original.meta?.versionId;
  return versionId ? [{ op: 'test', path: '/meta/versionId', value: versionId }, ...operations] : operations;
}
