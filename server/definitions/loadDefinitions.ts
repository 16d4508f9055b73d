import type { Resource } from '@medplum/fhirtypes';
import type { Repository, RequestContext } from '../fhir/repository';
import { readState, writeState } from '../storage/serverState';
import { definitionBundleFiles, definitionsVersion, readDefinitionBundle, readDefinitionFile } from './definitionFiles';

export const systemAuthor = { reference: 'Device/system', display: 'System' };

export interface SystemState {
  projectId: string;
}

const chunkSize = 400;

/**
 * Loads the R4, Medplum and US Core definitions into the shared read-only system project, once
 * per definitions version (a later start with the same version skips it).
 */
export async function loadDefinitions(repository: Repository, log: (line: string) => void): Promise<SystemState> {
  const existing = await readState<SystemState & { version: string }>(repository.db, 'definitions');
  if (existing?.version === definitionsVersion) return existing;

  const started = Date.now();
  const projectId = existing?.projectId ?? 'system';
  const ctx: RequestContext = { projectId, author: systemAuthor };
  const seen = new Set<string>();
  let loaded = 0;

  await repository.transaction(async (session) => {
    await session.create(
      ctx,
      {
        resourceType: 'Project',
        name: 'Shared definitions',
        description: 'FHIR R4, Medplum and US Core definitions (read-only)',
      } as Resource,
      { id: projectId, trusted: true, fresh: !existing },
    );
    await session.create(
      ctx,
      { resourceType: 'Device', deviceName: [{ name: 'System', type: 'user-friendly-name' }] } as Resource,
      { id: 'system', trusted: true, fresh: !existing },
    );
  });

  for (const file of definitionBundleFiles) {
    const resources = file.startsWith('testing/') ? readDefinitionFile<Resource[]>(file) : readDefinitionBundle(file);
    const unique = resources.filter((resource) => {
      const key = `${resource.resourceType}/${resource.id}`;
      if (!resource.id || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    for (let start = 0; start < unique.length; start += chunkSize) {
      const chunk = unique.slice(start, start + chunkSize);
      await repository.transaction(async (session) => {
        for (const resource of chunk) {
          // Definitions come from a pinned package: trusted, and indexed like everything else.
          await session.create(ctx, resource, { id: resource.id, trusted: true, fresh: !existing });
        }
      });
      loaded += chunk.length;
    }
    log(`  definitions: ${file} (${loaded} resources so far)`);
  }
  const state = { projectId, version: definitionsVersion };
  await writeState(repository.db, 'definitions', state);
  log(`Loaded ${loaded} definitions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return state;
}
