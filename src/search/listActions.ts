import type { AccessPolicy } from '@medplum/fhirtypes';
import { canPerformOnType } from '../resources/accessRules';

export interface ListActions {
  /** New...: create a record of the type. */
  create: boolean;
  /** Export... and Delete... act on the records: offered only to who may delete them. */
  exportAndDelete: boolean;
}

/**
 * What a list's toolbar offers, as the access policy allows (the server enforces it anyway): a
 * read-only or absent type shows neither New... nor Export... nor Delete...; New needs `create`,
 * Export... and Delete... need `delete` (an `interaction` list may grant one without the other).
 */
export function listActionsFor(
  policy: AccessPolicy | undefined,
  superAdmin: boolean,
  resourceType: string,
): ListActions {
  return {
    create: canPerformOnType(policy, superAdmin, resourceType, 'create'),
    exportAndDelete: canPerformOnType(policy, superAdmin, resourceType, 'delete'),
  };
}
