import type { Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { versionDiff } from './versionDiff';

/** The text of a refused stale write (412 on If-Match, or a 409 conflict). */
export function editConflictMessage(resourceType: string): string {
  return `Another user modified this ${resourceType} since you opened it.`;
}

/**
 * The write options that make the server refuse the write (412) when the resource changed since
 * `base` was read: `If-Match: W/"3"`. Nothing when `base` has no version (a new resource).
 */
export function ifMatchOptions(base: Resource): { headers?: Record<string, string> } {
  const versionId = base.meta?.versionId;
  return versionId ? { headers: { 'If-Match': `W/"${versionId}"` } } : {};
}

/** The write was refused because someone else changed the resource first. */
export function isEditConflict(error: unknown): boolean {
  return error instanceof OperationOutcomeError && (error.status === 412 || error.status === 409);
}

/** The top-level elements the other user changed between the version the form was built from and theirs. */
export function changedElements(base: Resource, theirs: Resource): string[] {
  const names = versionDiff(base, theirs).map((change) => change.path.split(/[.[]/)[0] as string);
  return [...new Set(names)];
}
