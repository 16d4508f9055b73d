import type { Bundle, Resource } from '@medplum/fhirtypes';

/** Secrets the server keeps but never returns, whoever asks. */
const protectedFields: Record<string, readonly string[]> = {
  User: ['passwordHash', 'mfaSecret'],
  // Sign-in records keep only hashes of their codes, but even those stay on the server.
  Login: ['code', 'refreshSecret', 'cookie', 'codeChallenge'],
  UserSecurityRequest: ['secret'],
  PasswordChangeRequest: ['secret'],
};

/** A copy of `resource` (or of each resource in a Bundle) without protected fields. */
export function withoutProtectedFields<T extends Resource>(resource: T): T {
  if (resource.resourceType === 'Bundle') {
    const bundle = resource as Bundle;
    if (!bundle.entry?.some((e) => e.resource && protectedFields[e.resource.resourceType])) return resource;
    return {
      ...bundle,
      entry: bundle.entry.map((entry) =>
        entry.resource ? { ...entry, resource: withoutProtectedFields(entry.resource) } : entry,
      ),
    } as T;
  }
  const fields = protectedFields[resource.resourceType];
  if (!fields?.some((field) => field in resource)) return resource;
  const copy = { ...resource } as Record<string, unknown>;
  for (const field of fields) delete copy[field];
  return copy as T;
}

/** Clients never see protected fields, so an update that omits them keeps the stored values. */
export function keepProtectedFields<T extends Resource>(incoming: T, stored: Resource): T {
  const fields = protectedFields[incoming.resourceType];
  if (!fields) return incoming;
  const merged = { ...incoming } as Record<string, unknown>;
  const previous = stored as unknown as Record<string, unknown>;
  for (const field of fields) {
    if (!(field in merged) && field in previous) merged[field] = previous[field];
  }
  return merged as T;
}
