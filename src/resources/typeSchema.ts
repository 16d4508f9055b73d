import type { StructureDefinition } from '@medplum/fhirtypes';
import { RESOURCE_WRITE_EVENT, ResourceWriteEvent, type FhirClient } from '../../data-provider/client';
import {
  graphqlSchemaSource,
  SchemaLoader,
  type ElementModel,
  type SearchParameterModel,
  type TypeSchema,
} from '../../schema-engine';

export type { ElementModel as ElementSchema, SearchParameterModel, TypeSchema };

// One loader per client: schemas are cached for the session and a load under way is shared.
const loaders = new WeakMap<FhirClient, SchemaLoader>();

/** Types whose writes change what the loader holds: an implementer's profile or search parameter. */
export const DEFINITION_TYPES = ['StructureDefinition', 'SearchParameter'];

// Bumped when this client writes a definition, so screens reload their schemas without a restart.
const generations = new WeakMap<FhirClient, { value: number; listeners: Set<() => void> }>();

function generationOf(client: FhirClient) {
  let generation = generations.get(client);
  if (!generation) {
    const created = { value: 0, listeners: new Set<() => void>() };
    // Component tests hand in partial clients without events: those simply never report writes.
    client.addEventListener?.(RESOURCE_WRITE_EVENT, (event) => {
      if (!(event instanceof ResourceWriteEvent) || !DEFINITION_TYPES.some((type) => event.touches(type))) return;
      loaders.get(client)?.clear();
      created.value++;
      for (const listener of created.listeners) listener();
    });
    generations.set(client, created);
    generation = created;
  }
  return generation;
}

/** A number that changes whenever `client` writes a StructureDefinition or SearchParameter. */
export function definitionsGeneration(client: FhirClient): number {
  return generationOf(client).value;
}

/** Calls `onChange` after each definition write of `client`; returns the unsubscribe function. */
export function subscribeToDefinitionWrites(client: FhirClient, onChange: () => void): () => void {
  const { listeners } = generationOf(client);
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function schemaLoaderFor(client: FhirClient): SchemaLoader {
  generationOf(client);
  let loader = loaders.get(client);
  if (!loader) {
    loader = new SchemaLoader(graphqlSchemaSource(client));
    loaders.set(client, loader);
  }
  return loader;
}

/** Uses `loader` for `client` (tests and embedders with definitions at hand). */
export function setSchemaLoader(client: FhirClient, loader: SchemaLoader): void {
  loaders.set(client, loader);
}

/** Direct children of `parent` ('' for the top level), in definition order. */
export function childElements(schema: TypeSchema, parent: string): ElementModel[] {
  if (!parent) return schema.topLevel;
  return schema.elements.get(parent)?.children ?? [];
}

const TRAILING_ELEMENTS = ['meta', 'implicitRules', 'language', 'text', 'contained', 'extension', 'modifierExtension'];

/** The type's own elements first, then the generic resource elements (meta, text, extensions…). */
export function typeElementsFirst(elements: readonly ElementModel[]): ElementModel[] {
  return [
    ...elements.filter((element) => !TRAILING_ELEMENTS.includes(element.name)),
    ...elements.filter((element) => TRAILING_ELEMENTS.includes(element.name)),
  ];
}

/** The base definition of a resource type or datatype. */
export function loadTypeSchema(client: FhirClient, type: string): Promise<TypeSchema> {
  return schemaLoaderFor(client).loadType(type);
}

/** A profile by canonical URL. */
export function loadProfileSchema(client: FhirClient, url: string): Promise<TypeSchema> {
  return schemaLoaderFor(client).loadProfile(url);
}

/** The search parameters of a type (its own and the Resource/DomainResource ones). */
export function loadSearchParameters(client: FhirClient, type: string): Promise<SearchParameterModel[]> {
  return schemaLoaderFor(client).loadSearchParameters(type);
}

/** Profile list cap of app-spec §9. */
export const PROFILE_LIST_CAP = 10;

const PROFILE_ELEMENTS = 'url,name,title,type';

/**
 * Profiles constraining a type (for the 'Profiles' picker), at most 10 (app-spec §9); with `text`,
 * those whose title or name contains it (a type can have many more than 10, e.g. Observation).
 */
export async function listProfiles(client: FhirClient, type: string, text = ''): Promise<StructureDefinition[]> {
  const base = { type, derivation: 'constraint', _count: String(PROFILE_LIST_CAP), _elements: PROFILE_ELEMENTS };
  const filter = text.trim();
  if (!filter) return client.searchResources('StructureDefinition', base);
  const [byTitle, byName] = await Promise.all([
    client.searchResources('StructureDefinition', { ...base, 'title:contains': filter }),
    client.searchResources('StructureDefinition', { ...base, 'name:contains': filter.replace(/\s+/g, '') }),
  ]);
  const unique = new Map([...byTitle, ...byName].map((profile) => [profile.url, profile]));
  return [...unique.values()].slice(0, PROFILE_LIST_CAP);
}

/** One profile's url, name and title (the picker shows a chosen profile that is not among the first 10). */
export async function findProfile(client: FhirClient, url: string): Promise<StructureDefinition | undefined> {
  const [found] = await client.searchResources('StructureDefinition', {
    url,
    _count: '1',
    _elements: PROFILE_ELEMENTS,
  });
  return found;
}
