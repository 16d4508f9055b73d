import type { Bundle, ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { findStructureDefinition } from './structureDefinitionLookup';

const coreDefinitionPrefix = 'http://hl7.org/fhir/StructureDefinition/';
/** A guard against pathological profile graphs. */
const maxDefinitions = 500;
/**
 * Canonical URLs looked up (one search each) for one expansion. Definitions are data whoever may
 * write a StructureDefinition writes: one naming ten thousand profiles it does not hold made ten
 * thousand searches on every request for it, in one transaction.
 */
export const maxProfileLookups = 2000;

/**
 * The canonical URLs a profile depends on: the profiles named by its elements' types
 * (`type.profile`, e.g. extension definitions and constrained datatypes), types of logical models
 * named by URL, and its base definition.
 */
export function profileDependencies(definition: StructureDefinition): string[] {
  const urls = new Set<string>();
  const elements: ElementDefinition[] = [
    ...(definition.snapshot?.element ?? []),
    ...(definition.differential?.element ?? []),
  ];
  for (const element of elements) {
    for (const type of element.type ?? []) {
      for (const profile of type.profile ?? []) urls.add(profile);
      // Logical models name their types by canonical URL; core type codes need nothing.
      if (type.code?.startsWith('http')) urls.add(type.code);
    }
  }
  if (definition.baseDefinition) urls.add(definition.baseDefinition);
  urls.delete(definition.url as string);
  return [...urls];
}

/**
 * Base definitions of the FHIR specification (Patient, CodeableConcept, Extension…) are left out:
 * every client has them from its schema load. Core profiles (e.g. the vital signs profiles) stay.
 */
function isBaseDefinition(definition: StructureDefinition): boolean {
  return definition.derivation !== 'constraint' && definition.url?.startsWith(coreDefinitionPrefix) === true;
}

/**
 * `StructureDefinition/$expand-profile?url=`: a collection Bundle with the profile first, then
 * every StructureDefinition it depends on, recursively, each once. Dependencies the server does
 * not hold are skipped (the client falls back to the base type); an unknown `url` is a 404.
 */
export async function expandProfile(session: RepositorySession, url: string, fhirBase: string): Promise<Bundle> {
  const root = await findStructureDefinition(session, url);
  if (!root) throw errors.notFoundWith(`StructureDefinition ${url} not found`);
  const found: StructureDefinition[] = [root];
  const seen = new Set<string>([url, root.url as string]);
  for (let index = 0; index < found.length && found.length < maxDefinitions; index++) {
    const dependencies = profileDependencies(found[index]).filter((dependency) => !seen.has(dependency));
    // Checked before any of this definition's lookups, so that a refusal costs none of them.
    if (seen.size + dependencies.length > maxProfileLookups) {
      throw errors.invalid(`StructureDefinition ${url} depends on more than ${maxProfileLookups} definitions`, 'url');
    }
    for (const dependency of dependencies) {
      if (seen.has(dependency)) continue;
      seen.add(dependency);
      const definition = await findStructureDefinition(session, dependency);
      if (!definition || isBaseDefinition(definition)) continue;
      if (!found.some((existing) => existing.id === definition.id)) found.push(definition);
    }
  }
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: found.map((definition) => ({
      fullUrl: `${fhirBase}StructureDefinition/${definition.id}`,
      resource: definition,
    })),
  };
}
