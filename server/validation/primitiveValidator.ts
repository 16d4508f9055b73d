import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
// Straight from the rules file: the data-provider index also loads the web app's react-admin layer.
import { primitiveTypes, validatePrimitive } from '../../data-provider/validation/primitiveRules';
import { fhirJsonSchema, refName, type JsonSchemaNode } from './fhirJsonSchema';
import { hasElement, requiredChildren } from './requiredElements';

/**
 * Primitive types whose rules spec §5 states; checked beyond the JSON schema's own patterns.
 * xhtml is left to the schema: its rule (non-blank) is the schema's too, and a div can be large.
 */
const checkedPrimitives = new Set(primitiveTypes.filter((type) => type !== 'xhtml'));

/**
 * Walks `resource` along the FHIR JSON schema and checks every primitive value with the shared
 * rules of data-provider (the same ones the browser uses), so both sides agree on what is valid.
 */
export function validatePrimitives(resource: Record<string, unknown>): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  walkObject(resource, String(resource.resourceType), String(resource.resourceType), issues);
  return issues;
}

function walkObject(
  value: Record<string, unknown>,
  definitionName: string,
  path: string,
  issues: OperationOutcomeIssue[],
): void {
  const definitions = fhirJsonSchema().definitions;
  const definition = definitions[definitionName];
  if (!definition?.properties) return;
  for (const name of requiredChildren(definitionName)) {
    if (!hasElement(value, name)) {
      const element = name.replace('[x]', '');
      issues.push({
        severity: 'error',
        code: 'required',
        details: { text: `Missing required property "${element}"` },
        expression: [`${path}.${element}`],
      });
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const property = definition.properties[key];
    if (!property || key === 'resourceType') continue;
    const childPath = `${path}.${key}`;
    if (Array.isArray(child)) {
      const itemNode = property.items ?? property;
      child.forEach((item, index) => walkValue(item, itemNode, `${childPath}[${index}]`, issues, key));
    } else {
      walkValue(child, property, childPath, issues, key);
    }
  }
}

/** Choice elements (`deceasedDateTime`) are inlined in the schema: their type is the name's suffix. */
const choiceSuffixes = [...checkedPrimitives]
  .map((type) => ({ type, suffix: type[0].toUpperCase() + type.slice(1) }))
  .sort((a, b) => b.suffix.length - a.suffix.length);

function inlineType(node: JsonSchemaNode, key: string): string | undefined {
  if (node.$ref || (node.type !== 'string' && node.type !== 'number' && node.type !== 'boolean')) return undefined;
  return choiceSuffixes.find(({ suffix }) => key.endsWith(suffix) && key.length > suffix.length)?.type;
}

function walkValue(
  value: unknown,
  node: JsonSchemaNode,
  path: string,
  issues: OperationOutcomeIssue[],
  key: string,
): void {
  const type = refName(node.$ref) ?? inlineType(node, key);
  if (!type || value === null || value === undefined) return;
  if (type === 'ResourceList' || type === 'Resource') {
    if (typeof value === 'object' && !Array.isArray(value)) {
      const nested = value as Record<string, unknown>;
      if (typeof nested.resourceType === 'string') walkObject(nested, nested.resourceType, path, issues);
    }
    return;
  }
  if (checkedPrimitives.has(type)) {
    const message = validatePrimitive(type, value);
    if (message) issues.push({ severity: 'error', code: 'value', details: { text: message }, expression: [path] });
    return;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    walkObject(value as Record<string, unknown>, type, path, issues);
  }
}
