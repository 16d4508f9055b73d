import type { AccessGuard } from '../auth/accessGuard';
import { FhirError } from '../fhir/fhirError';
import type { Repository } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';

/** Ids per search: one `_id=a,b,…` query answers a whole page of Attachments. */
const idsPerQuery = 500;

/**
 * Which of `ids` the caller may read, with the current version id of each (what a signed URL of an
 * Attachment names), asked as the caller (project isolation and access policy apply) in one search
 * per 500 ids. A caller whose policy does not grant Binary at all reads none.
 */
export async function readableBinaryVersions(
  repository: Repository,
  access: AccessGuard | undefined,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const readable = new Map<string, string>();
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
        for (const resource of result.resources) {
          if (resource.id && resource.meta?.versionId) readable.set(resource.id, resource.meta.versionId);
        }
      }
    }, access);
  } catch (error) {
    // Refused by the policy (no Binary read or search): nothing is signed.
    if (error instanceof FhirError && error.status === 403) return new Map();
    throw error;
  }
  return readable;
}
