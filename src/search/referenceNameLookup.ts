import type { ResourceType } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { nameOfResource } from '../../data-provider/formatting';
import type { ReferenceNames } from './searchColumns';

/** Ids per search: keeps the URL short (ids are at most 64 characters). */
const IDS_PER_SEARCH = 50;

/**
 * The names of the resources `references` (`Type/id`) point at: one `_id` search per type and 50
 * ids, summaries only. A type the caller may not search, or a search that fails, names nothing —
 * those references are shown as they are rather than failing the list they belong to.
 */
export async function lookUpReferenceNames(
  client: FhirClient,
  references: readonly string[],
  signal?: AbortSignal,
): Promise<ReferenceNames> {
  const idsByType = new Map<string, string[]>();
  for (const reference of references) {
    const [type, id] = reference.split('/');
    if (!type || !id) continue;
    const ids = idsByType.get(type) ?? [];
    ids.push(id);
    idsByType.set(type, ids);
  }
  const searches: Promise<[string, { resource?: unknown }[]]>[] = [];
  for (const [type, ids] of idsByType) {
    for (let start = 0; start < ids.length; start += IDS_PER_SEARCH) {
      const chunk = ids.slice(start, start + IDS_PER_SEARCH);
      searches.push(
        client
          .search(type as ResourceType, { _id: chunk.join(','), _count: chunk.length, _summary: 'true' }, { signal })
          .then((bundle) => [type, bundle.entry ?? []]),
      );
    }
  }
  const names = new Map<string, string>();
  for (const outcome of await Promise.allSettled(searches)) {
    if (outcome.status !== 'fulfilled') continue;
    const [type, entries] = outcome.value;
    for (const entry of entries) {
      const resource = entry.resource as { resourceType?: string; id?: string } | undefined;
      if (!resource?.id || resource.resourceType !== type) continue;
      const name = nameOfResource(resource as Parameters<typeof nameOfResource>[0]);
      if (name) names.set(`${type}/${resource.id}`, name);
    }
  }
  return names;
}
