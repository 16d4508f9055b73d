import type { ElementDefinition, SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';

/**
 * Loading of one type's (or one profile's) definitions for the console screens.
 * Kept behind these small functions until the schema engine (schema-engine/) publishes its API;
 * the screens only use `TypeSchema` and `ElementSchema`, so the swap is local to this file.
 */
export interface ElementSchema {
  /** Path relative to the type, e.g. `name`, `contact.name`, `value[x]`. */
  path: string;
  /** Last path segment without `[x]`. */
  name: string;
  min: number;
  /** Infinity for `*` and very large values. */
  max: number;
  /** Allowed types; for backbone elements `BackboneElement` or `Element`. */
  types: string[];
  /** `contentReference` target path (e.g. `Questionnaire.item`), if any. */
  contentReference?: string;
  targetProfiles: string[];
  binding?: { strength: string; valueSet?: string };
  short?: string;
  isModifier?: boolean;
  isSummary?: boolean;
  fixed?: unknown;
  pattern?: unknown;
}

export interface TypeSchema {
  /** The type name (`Patient`) — for a profile the base type. */
  type: string;
  name: string;
  title?: string;
  url?: string;
  /** Top-level and nested elements keyed by path relative to the type. */
  elements: Map<string, ElementSchema>;
}

const LARGE_MAX = 1_000_000;

export function parseMax(max: string | undefined): number {
  if (max === undefined || max === '*') return Infinity;
  const value = Number(max);
  return Number.isFinite(value) && value < LARGE_MAX ? value : Infinity;
}

function fixedOrPattern(element: ElementDefinition, prefix: 'fixed' | 'pattern'): unknown {
  for (const [key, value] of Object.entries(element)) if (key.startsWith(prefix)) return value;
  return undefined;
}

/** A StructureDefinition's snapshot as an element map; throws the messages of app-spec §8. */
export function buildTypeSchema(definition: StructureDefinition): TypeSchema {
  if (!definition.name) throw new Error('StructureDefinition name missing');
  if (!definition.type) throw new Error('StructureDefinition type missing');
  const snapshot = definition.snapshot?.element ?? [];
  if (snapshot.length === 0) throw new Error('StructureDefinition snapshot missing');
  const elements = new Map<string, ElementSchema>();
  const root = definition.type;
  for (const element of snapshot) {
    const fullPath = element.path ?? '';
    // Slices are shown through their parent element here; the schema engine adds them as inputs.
    if (element.sliceName || !fullPath.startsWith(root + '.')) continue;
    const path = fullPath.slice(root.length + 1);
    if (elements.has(path)) continue;
    const last = path.split('.').pop() ?? path;
    elements.set(path, {
      path,
      name: last.replace('[x]', ''),
      min: element.min ?? 0,
      max: parseMax(element.max),
      types: (element.type ?? []).map((t) => t.code ?? '').filter(Boolean),
      contentReference: element.contentReference?.replace(/^#/, '').replace(`${root}.`, ''),
      targetProfiles: (element.type ?? []).flatMap((t) => t.targetProfile ?? []),
      binding: element.binding ? { strength: element.binding.strength, valueSet: element.binding.valueSet } : undefined,
      short: element.short,
      isModifier: element.isModifier,
      isSummary: element.isSummary,
      fixed: fixedOrPattern(element, 'fixed'),
      pattern: fixedOrPattern(element, 'pattern'),
    });
  }
  return { type: root, name: definition.name, title: definition.title, url: definition.url, elements };
}

/** Direct children of `parent` ('' for the top level), in definition order. */
export function childElements(schema: TypeSchema, parent: string): ElementSchema[] {
  const prefix = parent ? parent + '.' : '';
  const depth = prefix.split('.').length;
  return [...schema.elements.values()].filter((e) => e.path.startsWith(prefix) && e.path.split('.').length === depth);
}

const schemaCache = new Map<string, Promise<TypeSchema>>();

/** The base definition of a resource type or datatype, fetched once per session. */
export function loadTypeSchema(client: FhirClient, type: string): Promise<TypeSchema> {
  const key = `type:${type}`;
  let pending = schemaCache.get(key);
  if (!pending) {
    pending = client
      .searchResources('StructureDefinition', { type, derivation: 'specialization', _count: '20' })
      .then((definitions) => {
        const definition = definitions.find((d) => d.name === type) ?? definitions[0];
        if (!definition) throw new Error('StructureDefinition not found');
        return buildTypeSchema(definition);
      });
    pending.catch(() => schemaCache.delete(key));
    schemaCache.set(key, pending);
  }
  return pending;
}

/** A profile by canonical URL; fetched anew per session so a saved profile takes effect at once. */
export function loadProfileSchema(client: FhirClient, url: string): Promise<TypeSchema> {
  const key = `profile:${url}`;
  let pending = schemaCache.get(key);
  if (!pending) {
    pending = client
      .searchResources('StructureDefinition', { url, _sort: '-_lastUpdated', _count: '1' })
      .then((found) => {
        if (!found[0]) throw new Error('StructureDefinition not found');
        return buildTypeSchema(found[0]);
      });
    pending.catch(() => schemaCache.delete(key));
    schemaCache.set(key, pending);
  }
  return pending;
}

/** Profiles constraining a type (for the 'Profiles' picker), at most 10. */
export async function listProfiles(client: FhirClient, type: string): Promise<StructureDefinition[]> {
  return client.searchResources('StructureDefinition', {
    type,
    derivation: 'constraint',
    _count: '10',
    _elements: 'url,name,title,type',
  });
}

const parameterCache = new Map<string, Promise<SearchParameter[]>>();

/** The search parameters usable on a type (its own and the Resource/DomainResource ones), pages of 100. */
export function loadSearchParameters(client: FhirClient, type: string): Promise<SearchParameter[]> {
  let pending = parameterCache.get(type);
  if (!pending) {
    pending = (async () => {
      const all: SearchParameter[] = [];
      for (let offset = 0; offset < 2000; offset += 100) {
        const page = await client.searchResources('SearchParameter', {
          base: `${type},Resource,DomainResource`,
          _count: '100',
          _offset: String(offset),
          _elements: 'code,type,base,expression,target,name,description',
        });
        all.push(...page);
        if (page.length < 100) break;
      }
      const byCode = new Map<string, SearchParameter>();
      for (const parameter of all)
        if (parameter.code && !byCode.has(parameter.code)) byCode.set(parameter.code, parameter);
      return [...byCode.values()].sort((a, b) => (a.code ?? '').localeCompare(b.code ?? ''));
    })();
    pending.catch(() => parameterCache.delete(type));
    parameterCache.set(type, pending);
  }
  return pending;
}
