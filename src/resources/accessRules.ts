import type { AccessPolicy } from '@medplum/fhirtypes';
import { canPerform, type AccessInteraction } from '../../data-provider/access';

/**
 * Whether the caller may perform one write on the type: super admins always, others as their
 * policy's `interaction` lists say. New needs `create`, a save of a stored record `update`, Delete
 * `delete`: an entry granting only `update` must not offer a New whose save the server refuses.
 */
export function canPerformOnType(
  policy: AccessPolicy | undefined,
  superAdmin: boolean,
  resourceType: string,
  interaction: AccessInteraction,
): boolean {
  return superAdmin || canPerform(policy, resourceType, interaction);
}

export function permissionDeniedMessage(resourceType: string): string {
  return `Your access level prevents you from editing and creating ${resourceType} resources.`;
}
