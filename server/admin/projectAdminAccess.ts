import { errors } from '../fhir/fhirError';
import type { authenticate } from '../auth/authenticate';

type Caller = Awaited<ReturnType<typeof authenticate>>;

const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/**
 * The rule of every `/admin/projects/{projectId}/…` route: super admins, and the admins of that
 * project. Another project's admin gets 404 (the project does not exist for it); a member who is
 * not an admin gets 403.
 */
export function requireProjectAdmin(caller: Caller, projectId: string, action: string): void {
  if (caller.superAdmin) return;
  if (!idPattern.test(projectId) || projectId !== caller.ctx.projectId) throw errors.notFoundWith('Project not found');
  if (!caller.projectAdmin) throw errors.forbidden(`Forbidden: only project admins may ${action}`);
}
