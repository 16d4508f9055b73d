import type { PatchOperation } from '../../data-provider/client';

function pointer(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * RFC 6902 operations turning `before` into `after`. Objects are compared key by key, arrays of
 * equal length item by item; an array whose length changed is replaced whole (indexes would shift).
 */
export function createPatch(before: unknown, after: unknown, path = ''): PatchOperation[] {
  if (same(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const operations: PatchOperation[] = [];
    for (const key of Object.keys(before)) {
      if (!(key in after)) operations.push({ op: 'remove', path: `${path}/${pointer(key)}` });
    }
    for (const [key, value] of Object.entries(after)) {
      const child = `${path}/${pointer(key)}`;
      if (!(key in before)) operations.push({ op: 'add', path: child, value });
      else operations.push(...createPatch(before[key], value, child));
    }
    return operations;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, index) => createPatch(item, after[index], `${path}/${index}`));
  }
  return [{ op: 'replace', path: path || '/', value: after }];
}

/**
 * The editor's Patch: the changes (server-managed `meta` left out) guarded by a `test` of the
 * version the user loaded, so a concurrent change makes the server refuse the patch.
 */
export function createGuardedPatch(
  loaded: { meta?: { versionId?: string } } & Record<string, unknown>,
  edited: Record<string, unknown>,
): PatchOperation[] {
  const { meta: _loadedMeta, ...before } = loaded;
  const { meta: _editedMeta, ...after } = edited;
  const changes = createPatch(before, after);
  const versionId = loaded.meta?.versionId;
  return versionId ? [{ op: 'test', path: '/meta/versionId', value: versionId }, ...changes] : changes;
}
