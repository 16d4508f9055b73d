import type { AccessPolicy } from '@medplum/fhirtypes';
import { canEditResourceType } from '../resources/accessRules';

export interface ListActions {
  /** New...: create a record of the type. */
  create: boolean;
  /** Export... and Delete... act on the records: offered only to who may write the type. */
  exportAndDelete: boolean;
}

/**
 * What a list's toolbar offers, as the access policy allows (the server enforces it anyway): a
 * read-only or absent type shows neither New... nor Export... nor Delete....
 */
export function listActionsFor(
  policy: AccessPolicy | undefined,
  superAdmin: boolean,
  resourceType: string,
): ListActions {
  const writable = canEditResourceType(policy, superAdmin, resourceType);
  return { create: writable, exportAndDelete: writable };
}
