import type { AccessInteraction } from './accessPolicy';

/**
 * SMART App Launch scopes (v1 `patient/Observation.read`, v2 `user/*.cruds?category=…`) as rules:
 * a token's resource scopes narrow what its access policy allows. Pure, so the browser can show
 * exactly what the server enforces.
 */

export type ScopeContext = 'patient' | 'user' | 'system';

export interface ResourceScope {
  /** The scope as written in the token. */
  text: string;
  context: ScopeContext;
  /** A resource type, or `*` for every type. */
  resourceType: string;
  interactions: readonly AccessInteraction[];
  /** v2 query restriction (`category=laboratory`), without the `?`. */
  query?: string;
}

const allInteractions: readonly AccessInteraction[] = [
  'read',
  'vread',
  'history',
  'search',
  'create',
  'update',
  'patch',
  'delete',
];

/** v2 permission letters: read covers the instance (read, vread, its history), search the type. */
const letterInteractions: Record<string, readonly AccessInteraction[]> = {
  c: ['create'],
  r: ['read', 'vread', 'history'],
  u: ['update', 'patch'],
  d: ['delete'],
  s: ['search', 'history'],
};

const v1Interactions: Record<string, readonly AccessInteraction[]> = {
  read: ['read', 'vread', 'history', 'search'],
  write: ['create', 'update', 'patch', 'delete'],
  '*': allInteractions,
};

const resourceScopePattern = /^(patient|user|system)\/(\*|[A-Z][A-Za-z]+)\.([a-z*]+)(?:\?(.+))?$/;

/** Anything shaped like a resource scope, valid or not (`patient/…`, `user/…`, `system/…`). */
export function isResourceScopeText(text: string): boolean {
  return /^(patient|user|system)\//.test(text);
}

/** One resource scope, or undefined when it does not follow SMART v1 or v2 syntax. */
export function parseResourceScope(text: string): ResourceScope | undefined {
  const match = resourceScopePattern.exec(text);
  if (!match) return undefined;
  const [, context, resourceType, permission, query] = match;
  let interactions = v1Interactions[permission];
  if (!interactions) {
    // v2 letters appear at most once each, in the order c, r, u, d, s.
    if (!/^c?r?u?d?s?$/.test(permission) || permission.length === 0) return undefined;
    interactions = [...new Set([...permission].flatMap((letter) => letterInteractions[letter]))];
  }
  if (query !== undefined && !/^[^\s?]+=[^\s?]*(&[^\s?]+=[^\s?]*)*$/.test(query)) return undefined;
  return {
    text,
    context: context as ScopeContext,
    resourceType,
    interactions,
    ...(query !== undefined ? { query } : {}),
  };
}

/**
 * The resource scopes of a token's `scope`, or undefined when it has none: a token with only
 * `openid profile offline_access` (the app's own sign-in, Medplum clients) is not narrowed. A token
 * with resource-shaped scopes that do not parse is narrowed to the ones that do (possibly none).
 */
export function resourceScopesOf(scope: string | undefined): ResourceScope[] | undefined {
  const words = (scope ?? '').split(/\s+/).filter((word) => word.length > 0);
  if (!words.some(isResourceScopeText)) return undefined;
  return words.map(parseResourceScope).filter((parsed): parsed is ResourceScope => parsed !== undefined);
}

/** The scopes that grant `interaction` on `resourceType`. */
export function scopesGranting(
  scopes: readonly ResourceScope[],
  resourceType: string,
  interaction: AccessInteraction,
): ResourceScope[] {
  return scopes.filter(
    (scope) =>
      (scope.resourceType === '*' || scope.resourceType === resourceType) && scope.interactions.includes(interaction),
  );
}

/** The scopes that let the token see resources of the type at all (read or search). */
export function scopesGrantingSight(scopes: readonly ResourceScope[], resourceType: string): ResourceScope[] {
  return scopes.filter(
    (scope) =>
      (scope.resourceType === '*' || scope.resourceType === resourceType) &&
      (scope.interactions.includes('read') || scope.interactions.includes('search')),
  );
}
