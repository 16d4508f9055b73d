import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { instancePathToExpression } from './expressionPath';
import { evaluateValidatorCode } from './standaloneValidators';
import { createStructureAjv, structureSchemaRef } from './structureSchema';

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
let pendingCode: (() => string) | undefined;
let standalone: Map<string, ValidateFunction> | undefined;

/**
 * Use the validators of this standalone code (validatorStore.ts) instead of compiling them.
 * `code` is called and its result evaluated on the first validation, not here: a restart does not
 * pay the ~0.1–0.2 s parse of ~10 MB of code, and until a first write the process holds only the
 * compressed code (~0.7 MB) instead of the functions (~25 MB).
 */
export function useValidatorCode(code: () => string): void {
  pendingCode = code;
  standalone = undefined;
}

/** The validator compiled in this process, as before the standalone code (kept as the fallback and to compare with). */
export function compiledValidator(resourceType: string): ValidateFunction {
  let validate = compiled.get(resourceType);
  if (!validate) {
    // Compiled per type on first use: compiling the whole schema up front costs seconds.
    ajv ??= createStructureAjv();
    validate = ajv.getSchema(structureSchemaRef(resourceType));
    if (!validate) throw new Error(`No schema for ${resourceType}`);
    compiled.set(resourceType, validate);
  }
  return validate;
}

function validatorFor(resourceType: string): ValidateFunction {
  if (pendingCode !== undefined) {
    const code = pendingCode;
    pendingCode = undefined;
    try {
      standalone = evaluateValidatorCode(code());
    } catch (error) {
      // Validation must go on: compile instead (slower first writes, same checks), and say why.
      process.emitWarning(`Structure validator code not usable, compiling instead: ${String(error)}`);
    }
  }
  // Without standalone code (a process that did not load the store, e.g. a script) or for a type
  // it lacks, compile.
  return standalone?.get(resourceType) ?? compiledValidator(resourceType);
}

/** Structure and datatype issues of `resource` against the official FHIR JSON schema. */
export function validateStructure(resource: { resourceType: string }): OperationOutcomeIssue[] {
  return structureIssues(validatorFor(resource.resourceType), resource);
}

/** The issues `validate` reports for `resource`, as OperationOutcome issues. */
export function structureIssues(
  validate: ValidateFunction,
  resource: { resourceType: string },
): OperationOutcomeIssue[] {
  const resourceType = resource.resourceType;
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
