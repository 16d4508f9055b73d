import type { AccessPolicy } from '@medplum/fhirtypes';
import { canPerform } from '../../data-provider/access';
import { canPerformOnType } from '../../src/resources/accessRules';

/**
 * What the signed-in caller may do with each type in the chart, as their access policy says: the
 * chart shows a restricted user only the sections, tabs and buttons that would work for them,
 * rather than offering them and answering with the server's 403. Super admins, and members
 * without a policy, may do everything.
 */
export interface ChartAccess {
  /** May search (and so read) resources of the type. */
  canSearch(resourceType: string): boolean;
  /**
   * May create and update resources of the type: the chart's add and edit buttons go together,
   * so an `interaction` list granting one without the other offers neither.
   */
  canWrite(resourceType: string): boolean;
  /** May update stored resources of the type (the Edit tab changes the patient, creates nothing). */
  canUpdate(resourceType: string): boolean;
}

export interface ChartCaller {
  policy: AccessPolicy | undefined;
  superAdmin: boolean;
}

/** What a screen needs to work at all: every type it searches, creates and updates, or only updates. */
export interface AccessNeeds {
  search: readonly string[];
  write?: readonly string[];
  update?: readonly string[];
}

export function chartAccessOf(caller: ChartCaller): ChartAccess {
  return {
    canSearch: (resourceType) => caller.superAdmin || canPerform(caller.policy, resourceType, 'search'),
    canWrite: (resourceType) =>
      canPerformOnType(caller.policy, caller.superAdmin, resourceType, 'create') &&
      canPerformOnType(caller.policy, caller.superAdmin, resourceType, 'update'),
    canUpdate: (resourceType) => canPerformOnType(caller.policy, caller.superAdmin, resourceType, 'update'),
  };
}

export function allowsAll(access: ChartAccess, needs: AccessNeeds): boolean {
  return (
    needs.search.every(access.canSearch) &&
    (needs.write ?? []).every(access.canWrite) &&
    (needs.update ?? []).every(access.canUpdate)
  );
}
