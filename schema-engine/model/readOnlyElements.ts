/**
 * Elements of a resource that the server sets on every write, so a form never edits them:
 * `id` (from the URL), `meta.versionId` and `meta.lastUpdated` (the version the server made),
 * and Medplum's `meta.author`, `meta.project` and `meta.compartment` (from the caller's login and
 * the references in the resource — the server overwrites whatever a client sends).
 * `meta.account(s)` stay editable: a project admin may assign them.
 */
export const READ_ONLY_PATHS: readonly string[] = [
  'id',
  'meta.versionId',
  'meta.lastUpdated',
  'meta.author',
  'meta.project',
  'meta.compartment',
];

const readOnly = new Set(READ_ONLY_PATHS);

/** Is this path (relative to a resource, array indexes removed) set by the server only? */
export function isReadOnlyPath(path: string): boolean {
  return readOnly.has(path.replace(/\[\d+\]/g, ''));
}
