import { entriesGranting, scopesGranting, type AccessInteraction } from '../../data-provider/access';
import type { AccessGuard } from '../auth/accessGuard';

/**
 * Is the caller limited to some rows of `resourceType` for this write: does every entry of its
 * policy that grants the interaction carry a compartment or criteria (a patient's own compartment,
 * `Task?status=…`), or every SMART scope of its token that grants it a patient context or a query?
 * Such a caller may add references only to what it may read, or to what is about no other patient
 * than the written resource (RepositorySession.checkReferences): the row checks judge the written
 * resource, not what it points at, and a patient could otherwise write, within her own compartment,
 * a message `about` another patient, `basedOn` another's order or in another's Encounter. An entry
 * without either grants every row, and its holder (a clinician of the project) pays no lookup
 * beyond the project check.
 *
 * This reads the same entries as AccessGuard's row checks (server/auth/accessGuard.ts rowChecks):
 * the policy's unless the caller is a super admin, and the token's scopes when it has any.
 */
export function limitsWrittenRows(
  access: AccessGuard,
  resourceType: string,
  interaction: Extract<AccessInteraction, 'create' | 'update'>,
): boolean {
  if (!access.superAdmin && access.policy) {
    const entries = entriesGranting(access.policy, resourceType, interaction);
    if (entries.length > 0 && entries.every((entry) => entry.compartment?.reference || entry.criteria)) return true;
  }
  if (access.scoped) {
    const scopes = scopesGranting(access.options.scopes ?? [], resourceType, interaction);
    if (scopes.length > 0 && scopes.every((scope) => scope.context === 'patient' || scope.query)) return true;
  }
  return false;
}
