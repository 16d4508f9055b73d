import type { AccessPolicy, AccessPolicyResource, Resource } from '@medplum/fhirtypes';

/**
 * Access-policy rules (data-and-client-layer-spec.md §6), pure so that the server enforces and the
 * browser hides exactly the same things.
 */

/** What a wildcard (`*`) entry never grants: account and security records. */
export const wildcardExcludedTypes: readonly string[] = [
  'PasswordChangeRequest',
  'UserSecurityRequest',
  'Project',
  'ProjectMembership',
  'User',
];

/**
 * Definitions every signed-in member may read and search whatever the policy lists: forms, filters
 * and value pickers are built from them, so a policy that forgets them would leave its users with
 * screens that cannot load. Only the shared definitions are opened this way; a project's own
 * definitions still follow its policy (the search scope adds the shared project to every query).
 */
export const sharedDefinitionTypes: readonly string[] = [
  'StructureDefinition',
  'SearchParameter',
  'ValueSet',
  'CodeSystem',
  'ConceptMap',
  'CompartmentDefinition',
  'OperationDefinition',
];

/**
 * The project's own administration: who is in it, what they may do, its clients and bots. Only its
 * admins (and super admins) write these, whatever a policy grants — otherwise any member without a
 * policy could make itself an admin by editing its own membership.
 */
export const projectAdminTypes: readonly string[] = [
  'Project',
  'ProjectMembership',
  'AccessPolicy',
  'ClientApplication',
  'Bot',
  'IdentityProvider',
];

/** Written only by the server itself, whoever asks. */
export const neverWritableTypes: readonly string[] = ['Login', 'DomainConfiguration', 'JsonWebKey'];

/**
 * Accounts and their password links: written by the server (invitations, registration, password
 * links) and by super admins, never by a project. A User a project wrote itself (another person's
 * address, `emailVerified`, a password hash of its choice) would be found by its address at sign-in
 * and by the next invitation (account pre-hijacking, server/auth/addressOwnership.ts), and a
 * UserSecurityRequest it wrote would be a password link whose secret it knows.
 */
export const superAdminWritableTypes: readonly string[] = ['User', 'UserSecurityRequest', 'PasswordChangeRequest'];

export type AccessInteraction = 'read' | 'vread' | 'history' | 'search' | 'create' | 'update' | 'patch' | 'delete';

export const readInteractions: readonly AccessInteraction[] = ['read', 'vread', 'history', 'search'];

export function isReadInteraction(interaction: AccessInteraction): boolean {
  return readInteractions.includes(interaction);
}

/** The policy entries that apply to `resourceType`: its own entries, else the wildcard's (unless excluded). */
export function policyEntriesFor(policy: AccessPolicy | undefined, resourceType: string): AccessPolicyResource[] {
  if (!policy) return [];
  const entries = policy.resource ?? [];
  const own = entries.filter((entry) => entry.resourceType === resourceType);
  if (own.length > 0) return own;
  if (wildcardExcludedTypes.includes(resourceType)) return [];
  return entries.filter((entry) => entry.resourceType === '*');
}

export const writeInteractions: readonly AccessInteraction[] = ['create', 'update', 'patch', 'delete'];

/**
 * Does one entry grant `interaction`? Its `interaction` list when it has one (a patch is an update
 * there: FHIR's list has no patch), else `readonly` grants the reads alone, else everything. An
 * entry listing `interaction: ['read']` must not write: ignoring the list would silently grant
 * more than the clinic wrote.
 */
export function entryGrants(entry: AccessPolicyResource, interaction: AccessInteraction): boolean {
  if (entry.interaction) {
    const listed = interaction === 'patch' ? 'update' : interaction;
    return (entry.interaction as readonly string[]).includes(listed);
  }
  return !entry.readonly || isReadInteraction(interaction);
}

/** The type's entries that grant `interaction` (their compartments and criteria are OR-ed). */
export function entriesGranting(
  policy: AccessPolicy | undefined,
  resourceType: string,
  interaction: AccessInteraction,
): AccessPolicyResource[] {
  return policyEntriesFor(policy, resourceType).filter((entry) => entryGrants(entry, interaction));
}

/** No policy means full access within the project; a policy grants only what it lists. */
export function canReadResourceType(policy: AccessPolicy | undefined, resourceType: string): boolean {
  if (!policy) return true;
  return policyEntriesFor(policy, resourceType).some((entry) =>
    readInteractions.some((interaction) => entryGrants(entry, interaction)),
  );
}

/** Below super admin (super admins are decided by the callers: raAccess.ts, accessGuard.ts). */
export function canWriteResourceType(policy: AccessPolicy | undefined, resourceType: string): boolean {
  if (neverWritableTypes.includes(resourceType) || superAdminWritableTypes.includes(resourceType)) return false;
  if (!policy) return true;
  return policyEntriesFor(policy, resourceType).some((entry) =>
    writeInteractions.some((interaction) => entryGrants(entry, interaction)),
  );
}

export function canPerform(
  policy: AccessPolicy | undefined,
  resourceType: string,
  interaction: AccessInteraction,
): boolean {
  if (!isReadInteraction(interaction)) {
    if (neverWritableTypes.includes(resourceType) || superAdminWritableTypes.includes(resourceType)) return false;
  }
  if (!policy) return true;
  return entriesGranting(policy, resourceType, interaction).length > 0;
}

/** Entries that allow some write (readonly entries, and lists of reads only, never do). */
export function writableEntriesFor(policy: AccessPolicy | undefined, resourceType: string): AccessPolicyResource[] {
  return policyEntriesFor(policy, resourceType).filter((entry) =>
    writeInteractions.some((interaction) => entryGrants(entry, interaction)),
  );
}

/** Paths hidden from the caller for this type (from every applicable entry). */
export function hiddenFieldsFor(policy: AccessPolicy | undefined, resourceType: string): string[] {
  return unique(policyEntriesFor(policy, resourceType).flatMap((entry) => entry.hiddenFields ?? []));
}

/**
 * Paths the caller may see but not change (hidden fields cannot be changed either). With an
 * interaction, an entry's `readonlyFields` count only when that entry grants it: an entry that
 * lets a patient mark a message read (`interaction: ['update']`, the text read-only) must not make
 * the text read-only in the entry that lets her write her own messages (`['create']`). Hidden
 * fields count from every entry whatever the interaction.
 */
export function readonlyFieldsFor(
  policy: AccessPolicy | undefined,
  resourceType: string,
  interaction?: AccessInteraction,
): string[] {
  const entries = policyEntriesFor(policy, resourceType);
  return unique([
    ...entries
      .filter((entry) => interaction === undefined || entryGrants(entry, interaction))
      .flatMap((entry) => entry.readonlyFields ?? []),
    ...entries.flatMap((entry) => entry.hiddenFields ?? []),
  ]);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * A copy of `resource` without the values at `paths` (dotted, through arrays: `name.given`,
 * `meta.author`, `identifier.value`). The input is not changed.
 */
export function removeFields<T extends Resource>(resource: T, paths: readonly string[]): T {
  if (paths.length === 0) return resource;
  let copy = structuredClone(resource) as unknown as Record<string, unknown>;
  for (const path of paths) copy = removePath(copy, path.split('.')) as Record<string, unknown>;
  return copy as unknown as T;
}

function removePath(value: unknown, segments: string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => removePath(item, segments));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  const [head, ...rest] = segments;
  if (rest.length === 0) {
    delete record[head];
    // A primitive's extensions travel in `_field` and are as hidden as the value.
    delete record[`_${head}`];
    return record;
  }
  if (head in record) record[head] = removePath(record[head], rest);
  return record;
}

/** The value at a dotted path, collected through arrays (undefined when absent). */
export function valuesAtPath(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const segment of path.split('.')) {
    const next: unknown[] = [];
    for (const item of current) {
      if (typeof item !== 'object' || item === null) continue;
      const child = (item as Record<string, unknown>)[segment];
      if (child === undefined) continue;
      if (Array.isArray(child)) next.push(...child);
      else next.push(child);
    }
    current = next;
  }
  return current;
}

/**
 * Which of `paths` hold different values in `before` and `after`. Arrays compare in order; an
 * object's keys do not: the stored version comes back from PostgreSQL's jsonb with its keys
 * reordered (shorter first), so a client writing back `{system, value}` unchanged must not be told
 * it changed a read-only identifier.
 */
export function changedFields(before: Resource | undefined, after: Resource, paths: readonly string[]): string[] {
  return paths.filter(
    (path) => canonicalJson(valuesAtPath(before ?? {}, path)) !== canonicalJson(valuesAtPath(after, path)),
  );
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const record = item as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, record[key]]),
    );
  });
}

/**
 * Puts the stored values at `paths` back into a copy of `incoming`: a caller who never saw a hidden
 * field cannot erase it by writing back what it saw. Arrays are matched element by element.
 */
export function restoreFields<T extends Resource>(incoming: T, stored: Resource, paths: readonly string[]): T {
  if (paths.length === 0) return incoming;
  const merged = structuredClone(incoming) as unknown as Record<string, unknown>;
  for (const path of paths) restorePath(merged, stored as unknown as Record<string, unknown>, path.split('.'));
  return merged as unknown as T;
}

function restorePath(target: Record<string, unknown>, source: Record<string, unknown>, segments: string[]): void {
  const [head, ...rest] = segments;
  if (rest.length === 0) {
    for (const key of [head, `_${head}`]) {
      if (key in source) target[key] = structuredClone(source[key]);
      else delete target[key];
    }
    return;
  }
  const from = source[head];
  const to = target[head];
  if (from === undefined) return;
  if (to === undefined) {
    target[head] = structuredClone(from);
    return;
  }
  const pairs: [unknown, unknown][] =
    Array.isArray(from) && Array.isArray(to) ? to.map((item, index) => [item, from[index]]) : [[to, from]];
  for (const [toItem, fromItem] of pairs) {
    if (isRecord(toItem) && isRecord(fromItem)) restorePath(toItem, fromItem, rest);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
