import type { StructureDefinition } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';

/** The StructureDefinition with this canonical URL (`url|version` allowed) the caller can see, if any. */
export async function findStructureDefinition(
  session: RepositorySession,
  canonical: string,
): Promise<StructureDefinition | undefined> {
  const [url, version] = canonical.split('|');
  const query: Record<string, string> = { url, _count: '1' };
  if (version) query.version = version;
  const result = await session.search(parseSearchRequest('StructureDefinition', query, session.registry));
  return result.resources[0] as StructureDefinition | undefined;
}
