import { readDefinitionFile } from '../definitions/definitionFiles';

export interface JsonSchemaNode {
  $ref?: string;
  type?: string;
  items?: JsonSchemaNode;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchemaNode[];
  pattern?: string;
  additionalProperties?: boolean;
  [key: string]: unknown;
}

export interface FhirJsonSchema {
  $schema: string;
  definitions: Record<string, JsonSchemaNode>;
  [key: string]: unknown;
}

let schema: FhirJsonSchema | undefined;

/**
 * The official FHIR R4 JSON schema (Medplum's edition, which adds the admin resource types and
 * the Meta extensions project/author/compartment).
 */
export function fhirJsonSchema(): FhirJsonSchema {
  schema ??= readDefinitionFile<FhirJsonSchema>('fhir.schema.json');
  return schema;
}

let names: string[] | undefined;

/**
 * Resource types the server accepts: those the schema's ResourceList names that have a
 * resourceType property (Medplum's edition also lists some backbone elements there).
 */
export function resourceTypeNames(): string[] {
  names ??= resourceTypeNamesOf(fhirJsonSchema().definitions);
  return names;
}

/** The resource types of these schema definitions (see `resourceTypeNames`). */
export function resourceTypeNamesOf(definitions: Record<string, JsonSchemaNode>): string[] {
  return (definitions.ResourceList.oneOf ?? [])
    .map((entry) => refName(entry.$ref))
    .filter((name): name is string => name !== undefined && definitions[name]?.properties?.resourceType !== undefined);
}

let typeSet: Set<string> | undefined;

export function isKnownResourceType(type: string): boolean {
  typeSet ??= new Set(resourceTypeNames());
  return typeSet.has(type);
}

/** Name of the definition a `$ref` points at, e.g. `#/definitions/date` → `date`. */
export function refName(ref: string | undefined): string | undefined {
  return ref?.startsWith('#/definitions/') ? ref.slice('#/definitions/'.length) : undefined;
}
