import type { Project } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';

/**
 * Fields of a Project that grant power beyond the project: `superAdmin` (every project on the
 * server) and `features` (e.g. `email`: sending mail as the server). Only super admins set them; a
 * project admin's write must leave them as stored.
 */
export const superAdminProjectFields = ['superAdmin', 'features'] as const;

/** 403 naming the fields when a caller below super admin would change them. */
export function checkProjectWrite(incoming: Project, stored: Project | undefined): void {
  const changed = superAdminProjectFields.filter(
    (field) =>
      JSON.stringify(incoming[field as keyof Project] ?? null) !==
      JSON.stringify(stored?.[field as keyof Project] ?? null),
  );
  if (changed.length === 0) return;
  throw errors.forbiddenIssues(
    changed.map((field) => ({
      severity: 'error' as const,
      code: 'forbidden' as const,
      details: { text: `Forbidden: only super admins may set Project.${field}` },
      expression: [`Project.${field}`],
    })),
  );
}
