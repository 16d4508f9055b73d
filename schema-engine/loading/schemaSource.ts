import type { SearchParameter, StructureDefinition } from '@medplum/fhirtypes';

/**
 * Where the loader gets definitions from. The browser uses the server's GraphQL
 * (`graphqlSchemaSource`); tests and the server use definitions held in memory
 * (`memorySchemaSource`).
 */
export interface SchemaSource {
  /**
   * The newest StructureDefinition for each canonical url, in the order asked (undefined when the
   * server has none). One call may carry several urls so that a form's types arrive in one round trip.
   */
  structureDefinitions(urls: readonly string[]): Promise<(StructureDefinition | undefined)[]>;
  /** One page of the SearchParameters whose base is one of `bases`, ordered stably. */
  searchParameters(bases: readonly string[], offset: number, count: number): Promise<SearchParameter[]>;
}

/** The canonical urls a base type may have: FHIR R4 first, then Medplum's own types (Project, Bot…). */
export function baseTypeUrls(type: string): string[] {
  return [`http://hl7.org/fhir/StructureDefinition/${type}`, `https://medplum.com/fhir/StructureDefinition/${type}`];
}
