import type { AccessPolicy, AccessPolicyResource } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { systemAuthor } from '../definitions/loadDefinitions';

export type SeededPolicyUpgrade =
  /** The stored policy had the entries of an earlier seed: they are now the current ones. */
  | 'upgraded'
  /** It already had the current entries. */
  | 'current'
  /** Someone changed it since it was seeded: left as it is (their policy, their decision). */
  | 'edited'
  /** There is no such policy (or it is gone): nothing to bring up to date. */
  | 'missing';

/**
 * Gives a policy the demo seed wrote the seed's current entries, when it still has exactly the
 * entries of an earlier seed. A policy the clinic edited is left alone: overwriting it could undo a
 * narrowing they chose; the caller says what to add instead.
 */
export async function upgradeSeededPolicy(
  session: RepositorySession,
  projectId: string,
  stored: AccessPolicy | undefined,
  seed: { current: AccessPolicyResource[]; earlier: AccessPolicyResource[][] },
): Promise<SeededPolicyUpgrade> {
  if (!stored) return 'missing';
  const entries = canonical(stored.resource ?? []);
  if (entries === canonical(seed.current)) return 'current';
  if (!seed.earlier.some((earlier) => canonical(earlier) === entries)) return 'edited';
  await session.update({ projectId, author: systemAuthor }, { ...stored, resource: structuredClone(seed.current) });
  return 'upgraded';
}

/** JSON with object keys sorted: the database does not keep a resource's key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}
