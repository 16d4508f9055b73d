import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import draft6MetaSchema from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { fhirJsonSchema, resourceTypeNames, type JsonSchemaNode } from './fhirJsonSchema';
import { instancePathToExpression } from './expressionPath';

let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function getAjv(): Ajv {
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    ajv.addMetaSchema(draft6MetaSchema);
    const source = fhirJsonSchema();
    const definitions: Record<string, JsonSchemaNode> = { ...source.definitions };
    // Contained and bundled resources: pick the branch by resourceType instead of trying all ~190.
    const types = resourceTypeNames();
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
    // Medplum's admin types name these two without defining them.
    definitions.Resource ??= { $ref: '#/definitions/ResourceList' };
    definitions.integer64 ??= { type: 'string', pattern: '^-?([0]|([1-9][0-9]*))$' };
    ajv.addSchema({ $id: 'fhir', definitions }, 'fhir');
  }
  return ajv;
}

function validatorFor(resourceType: string): ValidateFunction {
  let validate = validators.get(resourceType);
  if (!validate) {
    // Compiled per type on first use: compiling the whole schema up front costs seconds at start-up.
    validate = getAjv().getSchema(`fhir#/definitions/${resourceType}`);
    if (!validate) throw new Error(`No schema for ${resourceType}`);
    validators.set(resourceType, validate);
  }
  return validate;
}

/** Structure and datatype issues of `resource` against the official FHIR JSON schema. */
export function validateStructure(resource: { resourceType: string }): OperationOutcomeIssue[] {
  const resourceType = resource.resourceType;
  const validate = validatorFor(resourceType);
  if (validate(resource)) return [];
  return (validate.errors ?? []).flatMap((error) => toIssue(resourceType, error));
}

function toIssue(resourceType: string, error: ErrorObject): OperationOutcomeIssue[] {
  const path = instancePathToExpression(resourceType, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return [
        issue(
          'structure',
          `Invalid additional property "${String(params.additionalProperty)}"`,
          `${path}.${String(params.additionalProperty)}`,
        ),
      ];
    case 'required':
      return [
        issue(
          'required',
          `Missing required property "${String(params.missingProperty)}"`,
          `${path}.${String(params.missingProperty)}`,
        ),
      ];
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).slice(0, 12).map(String).join(', ');
      return [issue('value', `Invalid value; expected one of: ${allowed}`, path)];
    }
    case 'pattern': {
      const type = /\/definitions\/([A-Za-z]+)\/pattern$/.exec(error.schemaPath)?.[1] ?? 'value';
      return [issue('value', `Invalid ${type} format`, path)];
    }
    case 'type':
      return [issue('structure', `Expected ${String(params.type)}`, path)];
    case 'const':
      return [issue('value', `Expected ${JSON.stringify(params.allowedValue)}`, path)];
    case 'oneOf':
    case 'anyOf':
    case 'if':
      // Their branches already reported the specific problem.
      return [];
    default:
      return [issue('invalid', error.message ?? 'Invalid value', path)];
  }
}

function issue(code: OperationOutcomeIssue['code'], text: string, expression: string): OperationOutcomeIssue {
  return { severity: 'error', code, details: { text }, expression: [expression] };
}
