import { projectAdminTypes, wildcardExcludedTypes } from '../../data-provider/access';

/**
 * The shared definitions project is every member's to read for its definitions, but the project
 * record itself and administration or account records are the server's internals: a project admin
 * listing /Project sees only their own project.
 */
export function sharedRowVisible(resourceType: string): boolean {
  return !projectAdminTypes.includes(resourceType) && !wildcardExcludedTypes.includes(resourceType);
}
