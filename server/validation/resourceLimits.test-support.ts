import type { ResourceLimits } from './resourceLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- resources built as plain JSON */

/**
 * Resources exactly at one of the limits of resourceLimits.ts (the worst a caller may send), and
 * the outside tester's attack, for the unit and HTTP tests and tests/bench/resourceLimitsBenchmark.ts.
 * Sizes are computed from the limits given, so they follow the defaults if those change.
 */

/** JSON values in `value`, itself included: what RESOURCE_MAX_ELEMENTS counts. */
export function countValues(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    count++;
    if (next !== null && typeof next === 'object') stack.push(...Object.values(next));
  }
  return count;
}

/** Bytes of `value` as compact JSON: what RESOURCE_MAX_BYTES counts (the same, for text without escapes). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** A marker that makes a test's resources findable (and nobody else's). */
export function marker(): string {
  return `rl${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** The outside tester's request: a Patient with `count` names (200,000: 4 MB, 108 s before the limits). */
export function manyNames(count: number, family = 'K'): any {
  return { resourceType: 'Patient', name: Array.from({ length: count }, (_, i) => ({ family: `${i}${family}` })) };
}

/**
 * A Patient that gives exactly `maxIndexValues` search index values (`over` more): every Patient
 * has one (`deceased`, false), each `{family}` three (`name`, `family` and `phonetic`), and
 * `active` and `gender` one each for the remainder.
 */
export function indexValuesAtLimit(limits: ResourceLimits, family = 'K', over = 0): any {
  const target = limits.maxIndexValues + over - 1;
  const resource = manyNames(Math.floor(target / 3), family);
  if (target % 3 >= 1) resource.active = true;
  if (target % 3 === 2) resource.gender = 'unknown';
  return resource;
}

/** A Basic whose extensions bring it to exactly `maxElements` JSON values. */
export function elementsAtLimit(limits: ResourceLimits, over = 0): any {
  const resource: any = { resourceType: 'Basic', code: { text: 'elements at the limit' }, extension: [] };
  // Each extension is 3 values (the object, its url, its valueString).
  const room = limits.maxElements + over - countValues(resource);
  for (let i = 0; i < Math.floor(room / 3); i++)
    resource.extension.push({ url: 'https://e.org/x', valueString: `${i}` });
  const left = room % 3;
  // One or two values short: a Basic.subject reference object (1) with its reference (2).
  if (left === 1) resource.author = {};
  if (left === 2) resource.author = { display: 'a' };
  return resource;
}

/** A DocumentReference whose inline `data` brings it to exactly `maxBytes` of compact JSON (`over` more). */
export function bytesAtLimit(limits: ResourceLimits, over = 0): any {
  const target = limits.maxBytes + over;
  const resource: any = {
    resourceType: 'DocumentReference',
    status: 'current',
    content: [{ attachment: { contentType: 'text/plain', data: '' } }],
  };
  const room = target - jsonBytes(resource);
  const groups = Math.floor(room / 4);
  if (room % 4 === 0) {
    resource.content[0].attachment.data = 'QUJD'.repeat(groups);
  } else {
    // Whole base64 groups, and a description for the last bytes (`,"description":""` is 17 bytes).
    resource.content[0].attachment.data = 'QUJD'.repeat(groups - 5);
    resource.description = '';
    resource.description = 'd'.repeat(target - jsonBytes(resource));
  }
  return resource;
}

/** A Basic with one unindexed string of exactly `maxStringLength` characters (or `over` more). */
export function stringAtLimit(limits: ResourceLimits, over = 0): any {
  return {
    resourceType: 'Basic',
    code: { text: 'string at the limit' },
    extension: [{ url: 'https://e.org/long', valueString: 's'.repeat(limits.maxStringLength + over) }],
  };
}

/**
 * A Patient as large as every limit allows at once (the worst one request may store): index values
 * up to the limit (names), the rest of the values as unindexed extensions, and the rest of the bytes
 * as an inline photo.
 */
export function everyLimitAtOnce(limits: ResourceLimits, family = 'K'): any {
  const resource = indexValuesAtLimit(limits, family);
  resource.photo = [{ contentType: 'image/png', data: '' }];
  resource.extension = [];
  const room = limits.maxElements - countValues(resource);
  for (let i = 0; i < Math.floor(room / 3); i++)
    resource.extension.push({ url: 'https://e.org/x', valueString: `${i}` });
  const bytesLeft = limits.maxBytes - jsonBytes(resource);
  resource.photo[0].data = 'QUJD'.repeat(Math.max(0, Math.floor(bytesLeft / 4)));
  return resource;
}
