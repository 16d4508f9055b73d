import type { AccessPolicy } from '@medplum/fhirtypes';
import { canPerform } from '../../data-provider/access';
import { canEditResourceType } from '../../src/resources/accessRules';

/**
 * What the signed-in caller may do with each type in the chart, as their access policy says: the
 * chart shows a restricted user only the sections, tabs and buttons that would work for them,
 * rather than offering them and answering with the server's 403. Super admins, and members
 * without a policy, may do everything.
 */
export interface ChartAccess {
  /** May search (and so read) resources of the type. */
  canSearch(resourceType: string): boolean;
  /** May create and update resources of the type. */
  canWrite(resourceType: string): boolean;
}

export interface ChartCaller {
  policy: AccessPolicy | undefined;
  superAdmin: boolean;
}

/** What a screen needs to work at all: every type it searches, and every type it writes. */
export interface AccessNeeds {
  search: readonly string[];
  write?: readonly string[];
}

export function chartAccessOf(caller: ChartCaller): ChartAccess {
  return {
    canSearch: (resourceType) => caller.superAdmin || canPerform(caller.policy, resourceType, 'search'),
    canWrite: (resourceType) => canEditResourceType(caller.policy, caller.superAdmin, resourceType),
  };
}

export function allowsAll(access: ChartAccess, needs: AccessNeeds): boolean {
  return needs.search.every(access.canSearch) && (needs.write ?? []).every(access.canWrite);
}
