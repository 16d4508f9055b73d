import type { Resource, SearchParameter, StructureDefinition } from '@medplum/fhirtypes';
import { buildTypeSchema, isPrimitiveType } from '../model/buildTypeSchema';
import { notImplemented, SchemaError, STRUCTURE_DEFINITION_NOT_FOUND } from '../model/schemaErrors';
import type { ElementModel, SearchParameterModel, TypeSchema } from '../model/schemaTypes';
import { baseTypeUrls, type SchemaSource } from './schemaSource';

/** Schema search-param page (data-and-client-layer-spec §9). */
export const SEARCH_PARAMETER_PAGE_SIZE = 100;
/** A guard against a server that ignores `_offset`: no type has this many parameters. */
const MAX_SEARCH_PARAMETER_PAGES = 50;

/** Types that are never loaded as schemas: they are containers whose contents carry their own type. */
const abstractTypes = new Set(['Element', 'BackboneElement', 'Resource', 'DomainResource']);

/**
 * Loads types and profiles lazily, one at a time (or a form's few datatypes in one round trip),
 * caches them for the session and shares a load that is already under way.
 * Failed loads are not cached, so a retry (or a profile saved since) is fetched again.
 */
export class SchemaLoader {
  private readonly types = new Map<string, Promise<TypeSchema>>();
  private readonly profiles = new Map<string, Promise<TypeSchema>>();
  private readonly loadedTypes = new Map<string, TypeSchema>();
  private readonly loadedProfiles = new Map<string, TypeSchema>();
  private readonly parameters = new Map<string, Promise<SearchParameterModel[]>>();

  constructor(private readonly source: SchemaSource) {}

  /** The base definition of a resource type or datatype. Rejects with '{type} not implemented' when unknown. */
  loadType(type: string): Promise<TypeSchema> {
    return this.loadTypes([type]).then((schemas) => schemas[0]);
  }

  /** Several base types in one round trip (those not cached or under way). */
  loadTypes(types: readonly string[]): Promise<TypeSchema[]> {
    const missing = [...new Set(types)].filter((t) => !this.types.has(t));
    if (missing.length > 0) {
      const urls = missing.flatMap(baseTypeUrls);
      const batch = this.source.structureDefinitions(urls);
      missing.forEach((type, i) => {
        const pending = batch.then((found) => {
          const definition = found[i * 2] ?? found[i * 2 + 1];
          if (!definition) throw new SchemaError(notImplemented(type));
          const schema = buildTypeSchema(definition);
          this.loadedTypes.set(type, schema);
          return schema;
        });
        pending.catch(() => this.types.delete(type));
        this.types.set(type, pending);
      });
    }
    return Promise.all(types.map((t) => this.types.get(t) as Promise<TypeSchema>));
  }

  /** A profile by canonical url. Rejects with 'StructureDefinition not found' when the server has none. */
  loadProfile(url: string): Promise<TypeSchema> {
    let pending = this.profiles.get(url);
    if (!pending) {
      pending = this.source.structureDefinitions([url]).then(([definition]) => {
        if (!definition) throw new SchemaError(STRUCTURE_DEFINITION_NOT_FOUND);
        const schema = buildTypeSchema(definition);
        this.loadedProfiles.set(url, schema);
        return schema;
      });
      pending.catch(() => this.profiles.delete(url));
      this.profiles.set(url, pending);
    }
    return pending;
  }

  /**
   * The schema that drives a resource's form: its first `meta.profile` the server holds (or the
   * chosen profile), else the base type. Profiles that cannot be loaded are skipped.
   */
  async loadResourceSchema(
    resource: Pick<Resource, 'resourceType' | 'meta'>,
    chosenProfile?: string,
  ): Promise<TypeSchema> {
    const candidates = chosenProfile ? [chosenProfile] : (resource.meta?.profile ?? []);
    for (const url of candidates) {
      try {
        const schema = await this.loadProfile(url);
        if (schema.type === resource.resourceType) return schema;
      } catch (error) {
        if (chosenProfile) throw error;
      }
    }
    return this.loadType(resource.resourceType);
  }

  /**
   * Loads the datatypes the given elements need (all of the schema's elements by default) in one
   * round trip, so their inputs can render; primitives and inline backbone elements need nothing.
   */
  async loadElementTypes(
    schema: TypeSchema,
    elements: readonly ElementModel[] = [...schema.elements.values()],
  ): Promise<TypeSchema[]> {
    const needed = new Set<string>();
    for (const element of elements) {
      if (element.children.length > 0 || element.contentReference) continue;
      for (const code of element.types) if (!isPrimitiveType(code) && !abstractTypes.has(code)) needed.add(code);
    }
    return this.loadTypes([...needed]);
  }

  /** A type already loaded (for synchronous use by the form model and validator), else undefined. */
  getType(type: string): TypeSchema | undefined {
    return this.loadedTypes.get(type);
  }

  getProfile(url: string): TypeSchema | undefined {
    return this.loadedProfiles.get(url);
  }

  /**
   * The search parameters usable on a resource type: its own and those on Resource and
   * DomainResource (`_id`, `_lastUpdated`…), fetched in pages of 100 and cached.
   */
  loadSearchParameters(resourceType: string): Promise<SearchParameterModel[]> {
    let pending = this.parameters.get(resourceType);
    if (!pending) {
      pending = this.fetchSearchParameters(resourceType);
      pending.catch(() => this.parameters.delete(resourceType));
      this.parameters.set(resourceType, pending);
    }
    return pending;
  }

  private async fetchSearchParameters(resourceType: string): Promise<SearchParameterModel[]> {
    const bases = [resourceType, 'DomainResource', 'Resource'];
    const byCode = new Map<string, SearchParameterModel>();
    for (let page = 0; page < MAX_SEARCH_PARAMETER_PAGES; page++) {
      const found = await this.source.searchParameters(
        bases,
        page * SEARCH_PARAMETER_PAGE_SIZE,
        SEARCH_PARAMETER_PAGE_SIZE,
      );
      for (const parameter of found) {
        // The type's own definition of a code wins over a generic one.
        const model = toSearchParameterModel(parameter);
        const existing = byCode.get(model.code);
        if (!existing || (!existing.base.includes(resourceType) && model.base.includes(resourceType)))
          byCode.set(model.code, model);
      }
      if (found.length < SEARCH_PARAMETER_PAGE_SIZE) break;
    }
    return [...byCode.values()];
  }

  /** Forgets a profile or type so the next load fetches it again (an implementer saved a new version). */
  forget(typeOrUrl: string): void {
    this.types.delete(typeOrUrl);
    this.loadedTypes.delete(typeOrUrl);
    this.profiles.delete(typeOrUrl);
    this.loadedProfiles.delete(typeOrUrl);
    this.parameters.delete(typeOrUrl);
  }

  /** Forgets everything (sign-out, project switch). */
  clear(): void {
    this.types.clear();
    this.loadedTypes.clear();
    this.profiles.clear();
    this.loadedProfiles.clear();
    this.parameters.clear();
  }
}

export function toSearchParameterModel(parameter: SearchParameter): SearchParameterModel {
  return {
    code: parameter.code ?? '',
    type: parameter.type,
    expression: parameter.expression,
    description: parameter.description,
    target: parameter.target ?? [],
    base: parameter.base ?? [],
    resource: parameter,
  };
}

/** A definition built directly (e.g. the StructureDefinition an implementer is editing). */
export function schemaFromDefinition(definition: StructureDefinition): TypeSchema {
  return buildTypeSchema(definition);
}
