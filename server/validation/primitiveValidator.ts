import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
// Straight from the rules file: the data-provider index also loads the web app's react-admin layer.
import { primitiveTypes, validatePrimitive } from '../../data-provider/validation/primitiveRules';
import { attachmentUrlProblem } from './attachmentUrl';
import { fhirJsonSchema, refName, type JsonSchemaNode } from './fhirJsonSchema';
import { hasElement, requiredChildren } from './requiredElements';

/**
 * Primitive types whose rules spec §5 states; checked beyond the JSON schema's own patterns.
 * xhtml included: the schema only knows it as a string, and a narrative must hold no active
 * content (FHIR txt-1, data-provider/validation/narrativeXhtml.ts).
 */
const checkedPrimitives = new Set(primitiveTypes);

/**
 * What to do with a property's value: check it as a primitive, walk it as a datatype or backbone
 * element, or walk it as the resource its `resourceType` names (contained and bundled resources).
 */
type Step = { kind: 'primitive'; type: string } | { kind: 'element'; definition: string } | { kind: 'resource' };

/** A property's step for a single value and for each item of an array value. */
interface PropertyPlan {
  single: Step | undefined;
  each: Step | undefined;
}

/**
 * Each definition's properties resolved once to their steps (issue 20: resolving `$ref`s and
 * choice-type suffixes for every value of every write showed in the import profile).
 */
const plans = new Map<string, Map<string, PropertyPlan>>();

function planOf(definitionName: string): Map<string, PropertyPlan> | undefined {
  let plan = plans.get(definitionName);
  if (!plan) {
    const properties = fhirJsonSchema().definitions[definitionName]?.properties;
    // Only definitions of the schema get a plan: the name can be a contained resource's
    // resourceType, which is the client's text.
    if (!properties || !Object.hasOwn(fhirJsonSchema().definitions, definitionName)) return undefined;
    plan = new Map();
    for (const [key, property] of Object.entries(properties)) {
      if (key !== 'resourceType') {
        plan.set(key, { single: stepOf(property, key), each: stepOf(property.items ?? property, key) });
      }
    }
    plans.set(definitionName, plan);
  }
  return plan;
}

function stepOf(node: JsonSchemaNode, key: string): Step | undefined {
  const type = refName(node.$ref) ?? inlineType(node, key);
  if (!type) return undefined;
  if (type === 'ResourceList' || type === 'Resource') return { kind: 'resource' };
  if (checkedPrimitives.has(type)) return { kind: 'primitive', type };
  return { kind: 'element', definition: type };
}

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
  const plan = planOf(definitionName);
  if (!plan) return;
  if (definitionName === 'Extension') checkExtension(value, path, issues);
  if (definitionName === 'Attachment') checkAttachmentUrl(value, path, issues);
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
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const property = plan.get(key);
    if (!property) continue;
    const child = value[key];
    if (Array.isArray(child)) {
      const step = property.each;
      if (!step) continue;
      const childPath = `${path}.${key}`;
      for (let index = 0; index < child.length; index++) {
        walkValue(child[index], step, `${childPath}[${index}]`, issues);
      }
    } else if (property.single) {
      walkValue(child, property.single, `${path}.${key}`, issues);
    }
  }
}

/**
 * FHIR invariant ext-1 ("Must have either extensions or value[x], not both"): an extension carries
 * a value or nested extensions, exactly one of the two. One with a url and nothing else (what a form
 * left when it could not show the extension's value) says nothing and broke readers of it.
 */
function checkExtension(extension: Record<string, unknown>, path: string, issues: OperationOutcomeIssue[]): void {
  const nested = extension.extension;
  const hasExtensions = Array.isArray(nested) ? nested.length > 0 : nested !== undefined && nested !== null;
  let hasValue = false;
  for (const key in extension) {
    // value[x] (`valueString`), or only its primitive extension (`_valueString`).
    const name = key.startsWith('_') ? key.slice(1) : key;
    if (name.length > 5 && name.startsWith('value') && name[5] >= 'A' && name[5] <= 'Z' && extension[key] != null) {
      hasValue = true;
      break;
    }
  }
  if (hasValue === hasExtensions) {
    const url = typeof extension.url === 'string' ? ` ${extension.url}` : '';
    issues.push({
      severity: 'error',
      code: 'invariant',
      details: {
        text: hasValue
          ? `Extension${url} has both a value and nested extensions (ext-1: either extensions or value[x], not both)`
          : `Extension${url} has neither a value nor nested extensions (ext-1: either extensions or value[x])`,
      },
      expression: [path],
    });
  }
}

/**
 * An Attachment's url must not carry content a viewer would run or open (`javascript:`,
 * `data:text/html,…`): http(s), urn: or a reference such as `Binary/{id}` (attachmentUrl.ts).
 */
function checkAttachmentUrl(attachment: Record<string, unknown>, path: string, issues: OperationOutcomeIssue[]): void {
  const url = attachment.url;
  if (typeof url !== 'string') return;
  const problem = attachmentUrlProblem(url);
  if (problem)
    issues.push({ severity: 'error', code: 'value', details: { text: problem }, expression: [`${path}.url`] });
}

/** Choice elements (`deceasedDateTime`) are inlined in the schema: their type is the name's suffix. */
const choiceSuffixes = [...checkedPrimitives]
  .map((type) => ({ type, suffix: type[0].toUpperCase() + type.slice(1) }))
  .sort((a, b) => b.suffix.length - a.suffix.length);

function inlineType(node: JsonSchemaNode, key: string): string | undefined {
  if (node.$ref || (node.type !== 'string' && node.type !== 'number' && node.type !== 'boolean')) return undefined;
  return choiceSuffixes.find(({ suffix }) => key.endsWith(suffix) && key.length > suffix.length)?.type;
}

function walkValue(value: unknown, step: Step, path: string, issues: OperationOutcomeIssue[]): void {
  if (value === null || value === undefined) return;
  if (step.kind === 'primitive') {
    const message = validatePrimitive(step.type, value);
    if (message) issues.push({ severity: 'error', code: 'value', details: { text: message }, expression: [path] });
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) return;
  const object = value as Record<string, unknown>;
  if (step.kind === 'resource') {
    if (typeof object.resourceType === 'string') walkObject(object, object.resourceType, path, issues);
  } else {
    walkObject(object, step.definition, path, issues);
  }
}
