import type { Resource } from '@medplum/fhirtypes';

/** Secrets the server keeps but never returns, whoever asks. */
const protectedFields: Record<string, readonly string[]> = {
  User: ['passwordHash', 'mfaSecret'],
  // Sign-in records keep only hashes of their codes, but even those stay on the server.
  Login: ['code', 'refreshSecret', 'cookie', 'codeChallenge'],
  UserSecurityRequest: ['secret'],
  PasswordChangeRequest: ['secret'],
};

// Fields are protected on objects of these resourceTypes only, so such an object's JSON holds its
// type as a string ("Login"); stored text is jsonb's output, which never escapes letters.
const protectedTypes = Object.keys(protectedFields);
const protectedTypeString = new RegExp(`"(?:${protectedTypes.join('|')})"`);
// Every read by id scans its answer for these (issue 20). A search for `"Login"` stops at each of
// the text's many quotes; one for `Login"` jumps between the rarer capital letters, ~15 times
// faster over a resource's text. The full pattern then confirms the rare hit.
const typeNameEnds = protectedTypes.map((type) => `${type}"`);

/**
 * Whether stored JSON text may hold a protected field at any depth: it names a type that has
 * some. False means `withoutProtectedFields` would change nothing.
 */
export function mayHoldProtectedFields(json: string): boolean {
  for (const end of typeNameEnds) {
    if (json.includes(end)) return protectedTypeString.test(json);
  }
  return false;
}

/**
 * A copy of `value` without protected fields at any depth: a resource, a Bundle whose entries hold
 * Bundles (batch answers to searches), `contained`, Parameters, GraphQL data. Unchanged parts are
 * shared, not copied, so answers without secrets cost one walk.
 */
export function withoutProtectedFields<T>(value: T): T {
  return strip(value, 0) as T;
}

/** Deeper than any answer the server builds; the walk stops rather than recurse without end. */
const maxDepth = 200;

function strip(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > maxDepth) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const stripped = strip(item, depth + 1);
      if (stripped !== item) {
        copy ??= [...value];
        copy[index] = stripped;
      }
    }
    return copy ?? value;
  }
  const record = value as Record<string, unknown>;
  const fields = typeof record.resourceType === 'string' ? protectedFields[record.resourceType] : undefined;
  let copy: Record<string, unknown> | undefined;
  if (fields?.some((field) => field in record)) {
    copy = { ...record };
    for (const field of fields) delete copy[field];
  }
  // `for…in` rather than Object.entries: every answer is walked, and the entry arrays were most of
  // the walk's allocations (parsed JSON has no inherited enumerable keys, so both see the same keys).
  for (const key in record) {
    const child = record[key];
    if (typeof child !== 'object' || child === null) continue;
    const stripped = strip(child, depth + 1);
    if (stripped !== child) {
      copy ??= { ...record };
      copy[key] = stripped;
    }
  }
  return copy ?? record;
}

/** Clients never see protected fields, so an update that omits them keeps the stored values. */
export function keepProtectedFields<T extends Resource>(incoming: T, stored: Resource): T {
  const fields = protectedFields[incoming.resourceType];
  if (!fields) return incoming;
  const merged = { ...incoming } as Record<string, unknown>;
  const previous = stored as unknown as Record<string, unknown>;
  for (const field of fields) {
    if (!(field in merged) && field in previous) merged[field] = previous[field];
  }
  return merged as T;
}
