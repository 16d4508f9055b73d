import type { AccessPolicy } from '@medplum/fhirtypes';
import { canWriteResourceType } from '../../data-provider/access';

/** Whether the editor may write this type: super admins always, others as their access policy says (§6). */
export function canEditResourceType(
  policy: AccessPolicy | undefined,
  superAdmin: boolean,
  resourceType: string,
): boolean {
  return superAdmin || canWriteResourceType(policy, resourceType);
}

export function permissionDeniedMessage(resourceType: string): string {
  return `Your access level prevents you from editing and creating ${resourceType} resources.`;
}
