import { Ajv, type Options } from 'ajv';
import draft6MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { readDefinitionFile } from '../definitions/definitionFiles';
import { resourceTypeNamesOf, type FhirJsonSchema, type JsonSchemaNode } from './fhirJsonSchema';

/**
 * Bump when `structureSchema` or `structureAjvOptions` change: validator code kept in the database
 * (`validatorStore.ts`) is only reused when its revision matches. `structureSchema.unit.test.ts`
 * fails when the schema or the options change without a new revision.
 */
export const structureSchemaRevision = 1;

/** The ajv options of the structure validators, compiled in the server or generated as standalone code. */
export const structureAjvOptions: Options = { allErrors: true, strict: false, validateSchema: false };

export interface StructureSchema {
  $id: 'fhir';
  definitions: Record<string, JsonSchemaNode>;
}

/**
 * The FHIR JSON schema as the structure validators use it: without `description`s (a quarter of
 * the schema's size and of the generated code, never used in validation or in errors), with a
 * ResourceList that picks the branch its `resourceType` names, and the two definitions Medplum's
 * admin types name without defining. Read from the file and built on each call, not kept: a
 * process needs it once (to compile, or to hand to the generating worker), and on a first start
 * the parsed file would otherwise stay in memory (~15 MB) while nothing else has asked for it yet.
 */
export function structureSchema(): StructureSchema {
  const source = readDefinitionFile<FhirJsonSchema>('fhir.schema.json').definitions;
  const definitions = withoutDescriptions(source) as Record<string, JsonSchemaNode>;
  const types = resourceTypeNamesOf(source);
  definitions.ResourceList = {
    type: 'object',
    required: ['resourceType'],
    properties: { resourceType: { enum: types } },
    // Validate only against the branch the resourceType names, instead of trying all ~150.
    allOf: types.map((name) => ({
      if: { properties: { resourceType: { const: name } } },
      then: { $ref: `#/definitions/${name}` },
    })),
  };
  definitions.Resource ??= { $ref: '#/definitions/ResourceList' };
  definitions.integer64 ??= { type: 'string', pattern: '^-?([0]|([1-9][0-9]*))$' };
  return { $id: 'fhir', definitions };
}

/** An Ajv holding the structure schema (draft-06, as the FHIR schema declares). */
export function createStructureAjv(extra: Options = {}): Ajv {
  const ajv = new Ajv({ ...structureAjvOptions, ...extra });
  ajv.addMetaSchema(draft6MetaSchema);
  ajv.addSchema(structureSchema(), 'fhir');
  return ajv;
}

/** The key of a resource type's validator in the structure schema. */
export function structureSchemaRef(resourceType: string): string {
  return `fhir#/definitions/${resourceType}`;
}

function withoutDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDescriptions);
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    // `description` is an annotation in JSON schema; no definition here has a property of that
    // name at this level (properties sit under `properties`, whose keys are kept).
    if (key !== 'description' || typeof value !== 'string') copy[key] = withoutDescriptions(value);
  }
  return copy;
}
