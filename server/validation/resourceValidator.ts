import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { checkStructureDefinitionSize } from '../profiles/structureDefinitionSize';
import { validateAccessPolicy } from './accessPolicyRules';
import { validateClientApplication } from './clientApplicationRules';
import { isKnownResourceType } from './fhirJsonSchema';
import { validatePrimitives } from './primitiveValidator';
import { checkResourceLimits } from './resourceLimits';
import { validateStructureDefinitionElements } from './structureDefinitionRules';
import { validateStructure } from './structureValidator';

/**
 * Everything checked before a write is stored: a known resource type, the official JSON schema
 * (structure, datatypes, required elements, value sets bound as enums) and the primitive rules.
 * Returns the issues; an empty list means valid. A resource past the size limits
 * (resourceLimits.ts) is refused first, with a thrown 413; a StructureDefinition too large to be
 * worth validating (structureDefinitionSize.ts) next, with a thrown 422 (too-costly).
 */
export function validateResource(resource: unknown): OperationOutcomeIssue[] {
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) {
    return [issue('structure', 'Resource must be a JSON object', 'Resource')];
  }
  const candidate = resource as Record<string, unknown>;
  const resourceType = candidate.resourceType;
  if (typeof resourceType !== 'string' || resourceType.length === 0) {
    return [issue('required', 'Missing resourceType', 'resourceType')];
  }
  if (!isKnownResourceType(resourceType)) {
    return [issue('value', `Unknown resource type "${resourceType}"`, 'resourceType')];
  }
  // Before anything walks it: every later step costs in proportion to the resource's size.
  checkResourceLimits(candidate);
  if (resourceType === 'StructureDefinition') checkStructureDefinitionSize(candidate);
  const structural = validateStructure(candidate as { resourceType: string });
  const primitive = validatePrimitives(candidate);
  // The primitive rules say more precisely what is wrong with a value; keep one issue per path.
  const primitivePaths = new Set(primitive.map((i) => i.expression?.[0]));
  const rules =
    resourceType === 'ClientApplication'
      ? validateClientApplication(candidate)
      : resourceType === 'StructureDefinition'
        ? validateStructureDefinitionElements(candidate)
        : resourceType === 'AccessPolicy'
          ? validateAccessPolicy(candidate)
          : [];
  return [...primitive, ...structural.filter((i) => !primitivePaths.has(i.expression?.[0])), ...rules];
}

function issue(code: OperationOutcomeIssue['code'], text: string, expression: string): OperationOutcomeIssue {
  return { severity: 'error', code, details: { text }, expression: [expression] };
}
