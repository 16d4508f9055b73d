import { FhirError, outcomeOf } from './fhirError';

/**
 * What one batch or transaction Bundle (`POST /fhir/R4`) may hold. The body limit (MAX_BODY_BYTES,
 * 64 MB by default) alone allows about 1.4 million entries of `{"request":{"method":"GET","url":"Patient"}}`:
 * a million searches, or a transaction holding one database transaction (and, on the embedded
 * database, every other caller) for its whole length.
 */
export interface BundleLimits {
  /** Entries of one Bundle. */
  maxEntries: number;
}

/**
 * The largest Synthea patient Bundle (shared/data/synthea-r4) has 1,111 entries and the bench's
 * generated patients about 100; the importer sends collections in batches of 200
 * (server/import/importPlan.ts). 5,000 leaves more than four times the largest of them.
 */
export const bundleLimits: BundleLimits = {
  maxEntries: 5_000,
};

/** 413 naming `Bundle.entry` and the limit, before any entry is looked at. */
export function checkBundleEntryCount(count: number, limits: BundleLimits = bundleLimits): void {
  if (count <= limits.maxEntries) return;
  throw new FhirError(
    413,
    outcomeOf([
      {
        severity: 'error',
        code: 'too-costly',
        details: {
          text: `The Bundle has ${count} entries; a batch or transaction may have at most ${limits.maxEntries} (split it into several Bundles)`,
        },
        expression: ['Bundle.entry'],
      },
    ]),
  );
}
