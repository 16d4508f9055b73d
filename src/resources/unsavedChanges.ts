import type { Resource } from '@medplum/fhirtypes';
import { stripEmpty } from '../datatypes/inputProps';

/** The title of the prompt shown when leaving a form with unsaved changes. */
export const DISCARD_PROMPT = 'Discard unsaved changes?';
/** The info toast of an Update or Patch that would change nothing. */
export const NO_CHANGES = 'No changes to save';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Deep equality of JSON values; the order of an object's keys does not count (an array's does). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
  }
  return false;
}

/** A resource as the form would send it: empty strings, objects and arrays left out. */
function asSent(resource: Resource): unknown {
  return stripEmpty(resource) ?? { resourceType: resource.resourceType };
}

/**
 * Whether `draft` (what the form holds) differs from `base` (what it was built from) in anything
 * that would be saved: fields emptied back to nothing, and keys re-added in another order, are no change.
 */
export function hasUnsavedChanges(base: Resource, draft: Resource | undefined): boolean {
  return draft !== undefined && !sameJson(asSent(base), asSent(draft));
}

/** Leaving the page, within the app or for another location, may lose work only when the path changes. */
export function leavesPage(current: { pathname: string }, next: { pathname: string }): boolean {
  return current.pathname !== next.pathname;
}
