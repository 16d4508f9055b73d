import { errors } from '../fhir/fhirError';

/** Longest key, in characters. */
export const maxKeyLength = 128;
/** Largest value, in UTF-8 bytes. */
export const maxValueBytes = 32 * 1024;
/** Most keys one user may keep per application (keyValuePartition.ts); checked with the insert (KeyValueStore.putWithinLimit). */
export const maxKeysPerUser = 200;

const keyPattern = /^[A-Za-z0-9._:\-/]+$/;

/** 400 for an empty, too long or oddly spelled key. */
export function checkKey(key: string): void {
  if (key.length === 0) throw errors.invalid('Missing key', 'key');
  if (key.length > maxKeyLength) throw errors.invalid(`Key is longer than ${maxKeyLength} characters`, 'key');
  if (!keyPattern.test(key)) {
    throw errors.invalid('Key may only contain letters, digits and . _ : - /', 'key');
  }
}

/** 413 for a value above the limit. */
export function checkValue(value: string): void {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > maxValueBytes) {
    throw errors.tooLarge(`Value is ${bytes} bytes; the limit is ${maxValueBytes} bytes`);
  }
}
