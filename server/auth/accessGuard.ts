import type { AccessPolicy, AccessPolicyResource, Project, ProjectMembership, Resource } from '@medplum/fhirtypes';
import {
  adminOnlyFieldsFor,
  canPerform,
  changedFields,
  entriesGranting,
  hiddenFieldsFor,
  hiddenFieldsReadBy,
  isReadInteraction,
  neverWritableTypes,
  superAdminWritableTypes,
  projectAdminTypes,
  readonlyFieldsFor,
  removeFields,
  restoreFields,
  scopesGranting,
  scopesGrantingSight,
  sharedDefinitionTypes,
  type AccessInteraction,
  type ResourceScope,
} from '../../data-provider/access';
import { errors } from '../fhir/fhirError';
import { checkProjectWrite } from './projectFieldGuard';
import { withoutProtectedFields } from '../fhir/protectedFields';
import { checkAwaitingOwnerKept } from './membershipState';
import type { SqlExecutor } from '../storage/database';
import { accessScope, policyClause } from '../search/accessRestriction';
import { withCompositeReads } from '../search/compositeReads';
import type { FilterParameter, SearchRequest } from '../search/searchRequest';
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
  /**
   * The token's SMART resource scopes; undefined when it has none (the app's own sign-in), which
   * leaves the policy as it is. Scopes narrow the policy, super admins included.
   */
  scopes?: readonly ResourceScope[];
  /** `Patient/{id}` that `patient/` scopes are about (launch context, or the patient signed in). */
  launchPatient?: string;
}

/**
 * Enforces project isolation, the caller's access policy (data-and-client-layer-spec.md §6) and its
 * token's SMART scopes on every repository call made for a signed-in caller. Super admins bypass the
 * policy and see every project; scopes narrow them too.
 */
export class AccessGuard {
  readonly scope: SearchScope;
  readonly policy?: AccessPolicy;
  /** seesWhole's answers by type (they depend on the policy and scopes only, fixed for a guard). */
  private readonly wholeTypes = new Map<string, boolean>();

  constructor(
    readonly options: AccessGuardOptions,
    private readonly registry: SearchParameterRegistry,
  ) {
    this.policy = options.superAdmin ? undefined : options.policy;
    this.scope = accessScope(
      {
        projectIds: options.superAdmin ? undefined : [options.projectId],
        sharedProjectId: options.sharedProjectId,
        policy: this.policy,
        narrowing: options.scopes ? (resourceType) => this.scopeEntries(resourceType, 'sight') : undefined,
      },
      registry,
    );
  }

  /**
   * 403 when the token's SMART scopes do not grant `interaction` on the type (for calls outside the
   * repository too: running a bot, inviting). Tokens without resource scopes pass.
   */
  checkScopes(resourceType: string, interaction: AccessInteraction): void {
    if (this.scoped && this.scopeEntries(resourceType, interaction).length === 0) {
      throw errors.forbidden(`Forbidden: the token's scopes do not allow ${interaction} of ${resourceType}`);
    }
  }

  /** Is the token narrowed by SMART resource scopes? */
  get scoped(): boolean {
    return this.options.scopes !== undefined;
  }

  /** A super admin whose token is not narrowed by scopes: no row-level check applies. */
  get unrestricted(): boolean {
    return this.superAdmin && !this.scoped;
  }

  /**
   * The token's scopes that grant `interaction` on the type, as policy entries (a `patient/` scope
   * is the launch patient's compartment, a v2 query its criteria); none for a token that is not
   * narrowed. `patient/` scopes without a patient to be about grant nothing.
   */
  private scopeEntries(resourceType: string, interaction: AccessInteraction | 'sight'): AccessPolicyResource[] {
    const scopes = this.options.scopes ?? [];
    const granting =
      interaction === 'sight'
        ? scopesGrantingSight(scopes, resourceType)
        : scopesGranting(scopes, resourceType, interaction);
    const entries: AccessPolicyResource[] = [];
    for (const scope of granting) {
      if (scope.context === 'patient' && !this.options.launchPatient) continue;
      entries.push({
        resourceType,
        ...(scope.context === 'patient' ? { compartment: { reference: this.options.launchPatient } } : {}),
        ...(scope.query ? { criteria: `${resourceType}?${scope.query}` } : {}),
      });
    }
    return entries;
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
    if (!isReadInteraction(interaction) && !this.superAdmin && superAdminWritableTypes.includes(resourceType)) {
      throw errors.forbidden(
        `Forbidden: only super admins may ${interaction} ${resourceType} resources; people join through POST /admin/projects/{projectId}/invite`,
      );
    }
    const sharedRead = isReadInteraction(interaction) && sharedDefinitionTypes.includes(resourceType);
    if (!sharedRead) this.checkScopes(resourceType, interaction);
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
    if (this.isShared(resource.meta?.project)) return true;
    if (this.scoped && this.scopeEntries(resource.resourceType, 'history').length === 0) return false;
    return this.superAdmin || canPerform(this.policy, resource.resourceType, 'history');
  }

  /** May the caller read resources of this type at all (policy and scopes; rows are checked in SQL)? */
  canReadType(resourceType: string): boolean {
    if (this.scoped && this.scopeEntries(resourceType, 'sight').length === 0) return false;
    return this.superAdmin || canPerform(this.policy, resourceType, 'read');
  }

  isShared(projectId: string | null | undefined): boolean {
    return projectId === this.options.sharedProjectId;
  }

  /** Is the stored resource within the policy's (and the scopes') compartment and criteria for `interaction`? */
  async allows(tx: SqlExecutor, resource: Resource, interaction: AccessInteraction): Promise<boolean> {
    const read = isReadInteraction(interaction);
    if (read && this.isShared(resource.meta?.project)) return true;
    const constrained = this.rowChecks(resource.resourceType, interaction);
    if (constrained === 'denied') return false;
    if (constrained.length === 0) return true;
    const params = new SqlParams();
    // For writes, a patient compartment holds that patient's resources alone.
    const clauses = constrained.map(
      (entries) => `(${policyClause(this.policy, resource.resourceType, 'r', params, this.registry, entries, !read)})`,
    );
    const rows = await tx.query(
      `SELECT 1 FROM resources r WHERE r.resource_type = ${params.add(resource.resourceType)} AND r.id = ${params.add(resource.id)} AND ${clauses.join(' AND ')}`,
      params.values,
    );
    return rows.length > 0;
  }

  /**
   * May the caller see this earlier version of a resource whose current row it may read? The row
   * checks judge the current row, and an earlier version may have belonged elsewhere (a document
   * filed to the wrong patient, then moved). Its own compartments — the server sets them on every
   * write — must hold the patient compartment each constraint names; criteria and other
   * compartments are judged on the indexed current row only, so a caller whose access to the type
   * rests on them sees current versions alone.
   */
  allowsVersion(resource: Resource, interaction: AccessInteraction): boolean {
    if (this.isShared(resource.meta?.project)) return true;
    const constrained = this.rowChecks(resource.resourceType, interaction);
    if (constrained === 'denied') return false;
    const compartments = new Set((resource.meta?.compartment ?? []).map((c) => c.reference));
    return constrained.every((entries) =>
      entries.some((entry) => {
        if (entry.criteria) return false;
        const reference = entry.compartment?.reference;
        return reference === undefined || (reference.startsWith('Patient/') && compartments.has(reference));
      }),
    );
  }

  /**
   * What must be checked on a row before `interaction`: 'denied' when the policy or the scopes grant
   * it on no row of the type, else the entry lists with a compartment or criteria (each of the
   * policy and the scopes must allow the row: their clauses are AND-ed); none, every row is allowed.
   */
  private rowChecks(resourceType: string, interaction: AccessInteraction): AccessPolicyResource[][] | 'denied' {
    const checks: AccessPolicyResource[][] = [];
    if (!this.superAdmin && this.policy) {
      // The entries granting this very interaction: `interaction` lists and `readonly` both count.
      checks.push(entriesGranting(this.policy, resourceType, interaction));
    }
    if (this.scoped) checks.push(this.scopeEntries(resourceType, interaction));
    if (checks.some((entries) => entries.length === 0)) return 'denied';
    return checks.filter((entries) => entries.some((entry) => entry.compartment || entry.criteria));
  }

  /**
   * Does the caller read every row of this type that it may see at all, and whole: no compartment or
   * criteria to check on the row, no field the policy hides or only admins may read? Then a read
   * can hand over the stored JSON as it is (RepositorySession.readForAnswer); the server's own
   * secrets are still looked for in it there.
   */
  seesWhole(resourceType: string): boolean {
    let whole = this.wholeTypes.get(resourceType);
    if (whole === undefined) {
      const checks = this.rowChecks(resourceType, 'read');
      whole =
        checks !== 'denied' &&
        checks.length === 0 &&
        (!this.policy || hiddenFieldsFor(this.policy, resourceType).length === 0) &&
        (this.superAdmin || this.options.projectAdmin || adminOnlyFieldsFor(resourceType).length === 0);
      this.wholeTypes.set(resourceType, whole);
    }
    return whole;
  }

  /**
   * The resource as the caller may see it: without its hidden fields, without the credentials
   * only admins may read (client and project secrets), and never with the server's secrets
   * (password hashes, MFA and refresh secrets), whoever asks. Every resource a caller is
   * handed passes through here (reads, searches, includes, history, writes' answers, GraphQL,
   * $everything, export, subscription notifications), so this is where secrets are stripped.
   */
  redact<T extends Resource>(resource: T): T {
    let visible = this.policy ? removeFields(resource, hiddenFieldsFor(this.policy, resource.resourceType)) : resource;
    if (!this.options.superAdmin && !this.options.projectAdmin) {
      visible = removeFields(visible, adminOnlyFieldsFor(resource.resourceType));
    }
    return withoutProtectedFields(visible);
  }

  /**
   * A search may not read a field the policy hides: filtering, sorting, chaining or following
   * includes through it would reveal its value. 403 naming the parameter.
   */
  checkSearch(asked: SearchRequest): void {
    if (!this.policy) return;
    // A composite parameter reads what its components read (`code-value-quantity`: the value):
    // here, so that every search a caller makes (REST, subscription criteria…) is judged alike.
    const request = withCompositeReads(asked);
    const check = (resourceType: string, parameter: FilterParameter, name: string) => {
      if (typeof parameter === 'string') return;
      const hidden = hiddenFieldsReadBy(parameter.expression, resourceType, hiddenFieldsFor(this.policy, resourceType));
      if (hidden.length > 0) {
        throw errors.forbiddenIssues([
          {
            severity: 'error',
            code: 'forbidden',
            details: {
              text: `Forbidden: search parameter "${name}" reads ${hidden.map((f) => `${resourceType}.${f}`).join(', ')}, which your access policy hides`,
            },
            expression: [name],
          },
        ]);
      }
    };
    const type = request.resourceType;
    for (const filter of request.filters) {
      if (filter.kind === 'value') check(type, filter.parameter, filter.code);
      else if (filter.kind === 'chain') {
        check(type, filter.parameter, filter.code);
        check(filter.targetType, filter.filter.parameter, `${filter.code}.${filter.filter.code}`);
      } else {
        const name = `_has:${filter.sourceType}:${filter.referenceParameter.code}:${filter.filter.code}`;
        check(filter.sourceType, filter.referenceParameter, name);
        check(filter.sourceType, filter.filter.parameter, name);
      }
    }
    for (const rule of request.sort) check(type, rule.parameter, '_sort');
    for (const rule of request.include) check(rule.sourceType, rule.parameter, '_include');
    for (const rule of request.revInclude) check(rule.sourceType, rule.parameter, '_revinclude');
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
    const interaction = stored ? 'update' : 'create';
    const readonly = readonlyFieldsFor(this.policy, incoming.resourceType, interaction).filter(
      (path) => !hidden.includes(path),
    );
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
    // Waiting for the owner of the address is the server's to set and to end (membershipState.ts).
    checkAwaitingOwnerKept(incoming, stored);
    const user = incoming.user?.reference;
    const attachesUser = stored ? user !== stored.user?.reference : user?.startsWith('User/') === true;
    if (attachesUser) {
      throw errors.forbidden(
        'Forbidden: only super admins may add a user to a project through ProjectMembership; invite them with POST /admin/projects/{projectId}/invite',
      );
    }
  }
}
