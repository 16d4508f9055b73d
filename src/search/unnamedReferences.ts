import type { Reference, Resource } from '@medplum/fhirtypes';
import { valuesAtPath } from '../../schema-engine';

/**
 * At most this many distinct references are named per page: a page of 1,000 rows pointing at 1,000
 * different patients would otherwise cost ten searches to show one screen.
 */
export const NAMED_REFERENCES_PER_PAGE = 200;

// Only literal references to a resource on this server can be looked up; `#contained`, absolute URLs
// and `urn:uuid:` are shown as they are.
const LOCAL_REFERENCE = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/;

/** Whether `reference` is `Type/id` on this server, the only kind a screen can look up. */
export function isLocalReference(reference: string | undefined): reference is string {
  return typeof reference === 'string' && LOCAL_REFERENCE.test(reference);
}

/**
 * The distinct `Type/id` references of a page's reference columns that carry no display of their own,
 * in the order the rows show them, at most `NAMED_REFERENCES_PER_PAGE`.
 */
export function unnamedReferences(resources: readonly Resource[], referencePaths: readonly string[]): string[] {
  const found = new Set<string>();
  if (referencePaths.length === 0) return [];
  for (const resource of resources) {
    for (const path of referencePaths) {
      for (const value of valuesAtPath(resource, path)) {
        const reference = value as Reference;
        if (reference?.display || !isLocalReference(reference?.reference)) continue;
        found.add(reference.reference);
        if (found.size >= NAMED_REFERENCES_PER_PAGE) return [...found];
      }
    }
  }
  return [...found];
}
