import type { AccessPolicy } from '@medplum/fhirtypes';
import { canPerform, isReadInteraction, type AccessInteraction } from '../access';

/** react-admin's actions as FHIR interactions; an unknown action is a read of the type. */
const actionInteractions: Readonly<Record<string, AccessInteraction>> = {
  list: 'search',
  show: 'read',
  export: 'search',
  create: 'create',
  clone: 'create',
  edit: 'update',
  delete: 'delete',
};

export function interactionOfAction(action: string): AccessInteraction {
  // Field-level actions (`list.column`, `edit.field`) follow their screen's action.
  return actionInteractions[action] ?? actionInteractions[action.split('.')[0]] ?? 'read';
}

/**
 * The server's decision for a type and an interaction (server/auth/accessGuard.ts), from the same
 * rules: super admins may do everything but write Login; everyone else what their policy grants
 * (no policy: everything within the project), never writing Login, DomainConfiguration or JsonWebKey.
 */
export function canAccessResource(
  session: { superAdmin: boolean; accessPolicy: AccessPolicy | undefined },
  resourceType: string,
  action: string,
): boolean {
  const interaction = interactionOfAction(action);
  if (session.superAdmin) return resourceType !== 'Login' || isReadInteraction(interaction);
  // canPerform already refuses writes of the never-writable types.
  return canPerform(session.accessPolicy, resourceType, interaction);
}
