import type { SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import type { SchemaSource } from './schemaSource';

/** Counts what was asked, so tests can prove the loader fetches lazily and only once. */
export interface SourceCallLog {
  structureDefinitionUrls: string[][];
  searchParameterPages: { bases: string[]; offset: number; count: number }[];
}

/**
 * A SchemaSource over definitions held in memory (tests, the server, benchmarks). Later entries win
 * for the same url, as the newest version would on the server.
 */
export function memorySchemaSource(
  definitions: readonly StructureDefinition[],
  searchParameters: readonly SearchParameter[] = [],
): SchemaSource & { calls: SourceCallLog } {
  const byUrl = new Map<string, StructureDefinition>();
  for (const definition of definitions) if (definition.url) byUrl.set(definition.url, definition);
  const calls: SourceCallLog = { structureDefinitionUrls: [], searchParameterPages: [] };
  return {
    calls,
    async structureDefinitions(urls) {
      calls.structureDefinitionUrls.push([...urls]);
      return urls.map((url) => byUrl.get(url));
    },
    async searchParameters(bases, offset, count) {
      calls.searchParameterPages.push({ bases: [...bases], offset, count });
      const wanted = new Set(bases);
      return searchParameters.filter((p) => p.base?.some((b) => wanted.has(b))).slice(offset, offset + count);
    },
  };
}
