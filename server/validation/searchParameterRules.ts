import type { OperationOutcomeIssue, SearchParameter } from '@medplum/fhirtypes';
import fhirpath from 'fhirpath';
import r4Model from 'fhirpath/fhir-context/r4';
import { isKnownResourceType } from './fhirJsonSchema';

const indexedTypes = new Set([
  'string',
  'token',
  'reference',
  'date',
  'number',
  'quantity',
  'uri',
  'composite',
  'special',
]);

/**
 * What an implementer's SearchParameter must satisfy before it can take effect: a code that can
 * appear in a URL, known base types, and a FHIRPath expression the engine can compile.
 */
export function validateSearchParameter(parameter: SearchParameter): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  const add = (text: string, expression: string) =>
    issues.push({
      severity: 'error',
      code: 'invalid',
      details: { text },
      expression: [`SearchParameter.${expression}`],
    });
  if (parameter.code !== undefined && !/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(parameter.code)) {
    add(`Invalid code "${parameter.code}": up to 64 letters, digits, "-" and "_"`, 'code');
  }
  // R4 itself uses the abstract "Resource" and "DomainResource" as bases, which fhirtypes leaves out.
  ((parameter.base ?? []) as string[]).forEach((base, index) => {
    if (base !== 'Resource' && base !== 'DomainResource' && !isKnownResourceType(base))
      add(`Unknown resource type "${base}"`, `base[${index}]`);
  });
  if (parameter.type && !indexedTypes.has(parameter.type))
    add(`Unknown search parameter type "${parameter.type}"`, 'type');
  if (parameter.expression) {
    try {
      fhirpath.compile(parameter.expression, r4Model);
    } catch (error) {
      add(`Invalid FHIRPath expression: ${(error as Error).message.split('\n')[0]}`, 'expression');
    }
  } else if (parameter.type && parameter.type !== 'composite' && parameter.type !== 'special') {
    add('An expression is needed to index values', 'expression');
  }
  return issues;
}
