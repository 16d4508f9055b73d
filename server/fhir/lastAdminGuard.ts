import type { ProjectMembership } from '@medplum/fhirtypes';
import { adminSeatOf, lastAdminMessage, removesLastAdmin } from '../../data-provider/rules/lastProjectAdmin';
import type { SqlExecutor } from '../storage/database';
import { errors } from './fhirError';

/** The transaction lock every change of a project's admin seats takes (admin routes and FHIR writes alike). */
function projectAdminsLockKey(projectId: string): string {
  return `hearth:project-admins:${projectId}`;
}

/**
 * The last-admin rule, for the FHIR API (`PUT`/`DELETE ProjectMembership/{id}`, from the repository)
 * and the admin routes alike: below super admin, a write may not leave the project without an
 * active admin who is a person. Only a change that takes an admin seat away pays for the lock and
 * the count, which the lock makes safe against two admins stepping down at once.
 */
export async function checkKeepsAnAdmin(
  tx: SqlExecutor,
  before: ProjectMembership,
  after: ProjectMembership | 'removed',
): Promise<void> {
  const project = before.project?.reference;
  const id = before.id;
  if (!project?.startsWith('Project/') || !id) return;
  const next = after === 'removed' ? 'removed' : adminSeatOf(after);
  // Alone with itself, the change removes an admin only when `before` was one and `after` is not.
  if (!removesLastAdmin([adminSeatOf(before)], id, next)) return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
    projectAdminsLockKey(project.slice('Project/'.length)),
  ]);
  const rows = await tx.query<{ content: ProjectMembership }>(
    `SELECT content FROM resources
      WHERE resource_type = 'ProjectMembership' AND NOT deleted AND content->'project'->>'reference' = $1`,
    [project],
  );
  if (
    removesLastAdmin(
      rows.map((row) => adminSeatOf(row.content)),
      id,
      next,
    )
  ) {
    throw errors.invalid(lastAdminMessage, after === 'removed' ? 'ProjectMembership' : 'ProjectMembership.admin');
  }
}
