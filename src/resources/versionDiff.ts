/** One changed value between two versions of a resource; `undefined` = absent on that side. */
export interface VersionChange {
  path: string;
  before: unknown;
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The changes from `before` to `after`, down to leaf values (array items compared by index);
 * `meta` is left out because every version changes it.
 */
export function versionDiff(before: unknown, after: unknown, path = ''): VersionChange[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys
      .filter((key) => !(path === '' && key === 'meta'))
      .flatMap((key) => versionDiff(before[key], after[key], path ? `${path}.${key}` : key));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    return Array.from({ length }, (_, index) => versionDiff(before[index], after[index], `${path}[${index}]`)).flat();
  }
  return [{ path, before, after }];
}
