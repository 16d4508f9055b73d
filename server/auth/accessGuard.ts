import type { AccessPolicy, Project, ProjectMembership, Resource } from '@medplum/fhirtypes';
import {
  canPerform,
  changedFields,
  hiddenFieldsFor,
  isReadInteraction,
  neverWritableTypes,
  policyEntriesFor,
  projectAdminTypes,
  readonlyFieldsFor,
  removeFields,
  restoreFields,
  sharedDefinitionTypes,
  writableEntriesFor,
  type AccessInteraction,
} from '../../data-provider/access';
import { errors } from '../fhir/fhirError';
import { checkProjectWrite } from './projectFieldGuard';
import type { SqlExecutor } from '../storage/database';
import { accessScope, policyClause } from '../search/accessRestriction';
import { sharedRowVisible } from './sharedProjectVisibility';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { SqlParams, type SearchScope } from '../search/searchSql';

export interface AccessGuardOptions {
  /** The caller's active project: where its writes go and what it may read. */
  projectId: string;
  sharedProjectId: string;
  superAdmin: boolean;
  /** An admin of its project: may write the project's administration types. */
  projectAdmin?: boolean;
  policy?: AccessPolicy;
}

/**
 * Enforces project isolation and the caller's access policy (data-and-client-layer-spec.md §6) on
 * every repository call made for a signed-in caller. Super admins bypass the policy and see every project.
 */
export class AccessGuard {
  readonly scope: SearchScope;
  readonly policy?: AccessPolicy;

  constructor(
    readonly options: AccessGuardOptions,
    private readonly registry: SearchParameterRegistry,
  ) {
    this.policy = options.superAdmin ? undefined : options.policy;
    this.scope = options.superAdmin
      ? {}
      : accessScope(
          { projectIds: [options.projectId], sharedProjectId: options.sharedProjectId, policy: this.policy },
          registry,
        );
  }

  get superAdmin(): boolean {
    return this.options.superAdmin;
  }

  /** 403 naming the type and the operation when the policy does not grant it at all. */
  checkInteraction(resourceType: string, interaction: AccessInteraction): void {
    // Sign-in records are the server's alone; domain and key configuration is for super admins.
    const neverWritable = this.superAdmin ? resourceType === 'Login' : neverWritableTypes.includes(resourceType);
    if (!isReadInteraction(interaction) && neverWritable) {
      throw errors.forbidden(`Forbidden: ${resourceType} resources are never writable (${interaction})`);
    }
    if (this.superAdmin) return;
    if (!isReadInteraction(interaction) && !this.options.projectAdmin && projectAdminTypes.includes(resourceType)) {
      throw errors.forbidden(`Forbidden: only project admins may ${interaction} ${resourceType} resources`);
    }
    if (isReadInteraction(interaction) && sharedDefinitionTypes.includes(resourceType)) return;
    if (!canPerform(this.policy, resourceType, interaction)) {
      throw errors.forbidden(`Forbidden: your access policy does not allow ${interaction} of ${resourceType}`);
    }
  }

  /** Can the caller see a row of this project at all? (Otherwise it answers as if the row did not exist.) */
  seesProject(projectId: string | null | undefined, resourceType: string): boolean {
    if (this.superAdmin) return true;
    if (projectId === this.options.projectId) return true;
    return projectId === this.options.sharedProjectId && sharedRowVisible(resourceType);
  }

  /** The projects the caller reads from: its own and the shared definitions. */
  readableProjects(): string[] {
    return [this.options.projectId, this.options.sharedProjectId];
  }

  /** Does the policy grant reading this version's type (or is it a shared definition)? */
  canSeeVersion(resource: Resource): boolean {
    if (this.superAdmin || this.isShared(resource.meta?.project)) return true;
    return canPerform(this.policy, resource.resourceType, 'history');
  }

  isShared(projectId: string | null | undefined): boolean {
    return projectId === this.options.sharedProjectId;
  }

  /** Is the stored resource within the policy's compartment and criteria for `interaction`? */
  async allows(tx: SqlExecutor, resource: Resource, interaction: AccessInteraction): Promise<boolean> {
    if (this.superAdmin || !this.policy) return true;
    if (isReadInteraction(interaction) && this.isShared(resource.meta?.project)) return true;
    const entries = isReadInteraction(interaction)
      ? policyEntriesFor(this.policy, resource.resourceType)
      : writableEntriesFor(this.policy, resource.resourceType);
    if (entries.length === 0) return false;
    if (entries.every((entry) => !entry.compartment && !entry.criteria)) return true;
    const params = new SqlParams();
    const clause = policyClause(this.policy, resource.resourceType, 'r', params, this.registry, entries);
    const rows = await tx.query(
      `SELECT 1 FROM resources r WHERE r.resource_type = ${params.add(resource.resourceType)} AND r.id = ${params.add(resource.id)} AND (${clause})`,
      params.values,
    );
    return rows.length > 0;
  }

  /** The resource as the caller may see it: without its hidden fields. */
  redact<T extends Resource>(resource: T): T {
    if (!this.policy) return resource;
    return removeFields(resource, hiddenFieldsFor(this.policy, resource.resourceType));
  }

  /**
   * Checks an incoming write against the stored version: read-only fields may not change (400
   * naming them) and hidden fields keep their stored values.
   */
  guardWrite<T extends Resource>(incoming: T, stored: Resource | undefined): T {
    if (incoming.resourceType === 'ProjectMembership' && !this.superAdmin) {
      this.checkMembershipWrite(incoming as ProjectMembership, stored as ProjectMembership | undefined);
    }
    if (incoming.resourceType === 'Project' && !this.superAdmin) {
      checkProjectWrite(incoming as Project, stored as Project | undefined);
    }
    if (!this.policy) return incoming;
    const hidden = hiddenFieldsFor(this.policy, incoming.resourceType);
    const restored = stored ? restoreFields(incoming, stored, hidden) : removeFields(incoming, hidden);
    const readonly = readonlyFieldsFor(this.policy, incoming.resourceType).filter((path) => !hidden.includes(path));
    const changed = changedFields(stored, restored, readonly);
    if (changed.length > 0) {
      throw errors.forbiddenIssues(
        changed.map((path) => ({
          severity: 'error' as const,
          code: 'forbidden' as const,
          details: { text: `Field ${path} is read-only under your access policy` },
          expression: [`${incoming.resourceType}.${path}`],
        })),
      );
    }
    return restored;
  }

  /**
   * Memberships are how people get into a project: below super admin, a membership stays in the
   * caller's own project, and attaching a User (new, or by changing `user`) goes through
   * `POST /admin/projects/{id}/invite`. Project admins may still make memberships for their own
   * ClientApplications and Bots.
   */
  private checkMembershipWrite(incoming: ProjectMembership, stored: ProjectMembership | undefined): void {
    const ownProject = `Project/${this.options.projectId}`;
    if (incoming.project?.reference !== ownProject || (stored && stored.project?.reference !== ownProject)) {
      throw errors.forbidden(`Forbidden: a ProjectMembership must belong to your project (${ownProject})`);
    }
    const user = incoming.user?.reference;
    const attachesUser = stored ? user !== stored.user?.reference : user?.startsWith('User/') === true;
    if (attachesUser) {
      throw errors.forbidden(
        'Forbidden: only super admins may add a user to a project through ProjectMembership; invite them with POST /admin/projects/{projectId}/invite',
      );
    }
  }
}
