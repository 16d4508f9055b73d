import type { AccessGuard } from '../auth/accessGuard';
import { FhirError } from '../fhir/fhirError';
import type { Repository } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';

/** Ids per search: one `_id=a,b,…` query answers a whole page of Attachments. */
const idsPerQuery = 500;

/**
 * Which of `ids` the caller may read, asked as the caller (project isolation and access policy
 * apply) in one search per 500 ids. A caller whose policy does not grant Binary at all reads none.
 */
export async function readableBinaryIds(
  repository: Repository,
  access: AccessGuard | undefined,
  ids: readonly string[],
): Promise<Set<string>> {
  const readable = new Set<string>();
  if (ids.length === 0 || !access) return readable;
  try {
    access.checkInteraction('Binary', 'read');
    await repository.transaction(async (session) => {
      for (let start = 0; start < ids.length; start += idsPerQuery) {
        const chunk = ids.slice(start, start + idsPerQuery);
        const request = parseSearchRequest(
          'Binary',
          { _id: chunk.join(','), _count: String(chunk.length) },
          session.registry,
        );
        const result = await session.search(request);
        for (const resource of result.resources) if (resource.id) readable.add(resource.id);
      }
    }, access);
  } catch (error) {
    // Refused by the policy (no Binary read or search): nothing is signed.
    if (error instanceof FhirError && error.status === 403) return new Set();
    throw error;
  }
  return readable;
}
