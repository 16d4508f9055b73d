import type { OperationOutcome, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { validatePrimitive } from '../../data-provider/validation/primitiveRules';
import { choiceKey, isPrimitiveType } from '../model/buildTypeSchema';
import type { ElementConstraint, ElementModel, TypeSchema } from '../model/schemaTypes';
import { deepEqual } from '../form/jsonPatch';
import { matchesPattern } from '../form/patternMatch';
import { matchesSlice } from '../form/slices';
import { failedInvariants } from './invariants';
import type { ValidateOptions, ValidationIssue } from './validationTypes';

type Json = Record<string, unknown>;

interface Walk {
  options: ValidateOptions;
  root: Resource;
  issues: ValidationIssue[];
  invariants: boolean;
}

function issue(
  walk: Walk,
  code: OperationOutcomeIssue['code'],
  text: string,
  expression: string,
  severity: 'error' | 'warning' = 'error',
): void {
  walk.issues.push({ severity, code, details: { text }, expression: [expression] });
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys of `value` that hold this element, with their type (choice keys name the type). */
function presentKeys(element: ElementModel, value: Json): { key: string; type: string }[] {
  if (!element.isChoice) {
    return element.name in value || `_${element.name}` in value
      ? [{ key: element.name, type: element.types[0] ?? 'string' }]
      : [];
  }
  return element.types
    .map((type) => ({ key: choiceKey(element.name, type), type }))
    .filter(({ key }) => key in value || `_${key}` in value);
}

async function checkConstraints(
  walk: Walk,
  value: unknown,
  base: string,
  constraints: readonly ElementConstraint[],
  expression: string,
): Promise<void> {
  if (!walk.invariants || constraints.length === 0) return;
  for (const failed of await failedInvariants(value, base, constraints, walk.root, walk.options.runInvariant)) {
    issue(walk, 'invariant', `Constraint ${failed.key} not met: ${failed.human}`, expression, failed.severity);
  }
}

async function checkBinding(
  walk: Walk,
  element: ElementModel,
  type: string,
  value: unknown,
  expression: string,
): Promise<void> {
  const lookup = walk.options.valueSets;
  const valueSet = element.binding?.valueSet?.split('|')[0];
  if (!lookup || element.binding?.strength !== 'required' || !valueSet) return;
  let codings: { system?: string; code?: string }[] = [];
  if (type === 'code' && typeof value === 'string') codings = [{ code: value }];
  else if (type === 'Coding' && isObject(value)) codings = [value];
  else if (type === 'CodeableConcept' && isObject(value))
    codings = Array.isArray(value.coding) ? (value.coding as Json[]) : [];
  else return;
  const withCode = codings.filter((c) => typeof c.code === 'string');
  if (withCode.length === 0) return;
  const answers = await Promise.all(withCode.map((c) => lookup.hasCode(valueSet, c.system, c.code as string)));
  if (answers.some((a) => a === true) || answers.every((a) => a === undefined)) return;
  const shown = withCode.map((c) => (c.system ? `${c.system}|${c.code}` : c.code)).join(', ');
  issue(walk, 'code-invalid', `Value ${shown} not in required value set ${valueSet}`, expression);
}

async function checkValue(
  walk: Walk,
  schema: TypeSchema,
  element: ElementModel,
  type: string,
  value: unknown,
  base: string,
  expression: string,
): Promise<void> {
  if (element.fixedValue && !deepEqual(value, element.fixedValue.value)) {
    issue(walk, 'value', `Value does not match fixed value ${JSON.stringify(element.fixedValue.value)}`, expression);
  }
  if (element.patternValue && !matchesPattern(value, element.patternValue.value)) {
    issue(walk, 'value', `Value does not match pattern ${JSON.stringify(element.patternValue.value)}`, expression);
  }
  if (isPrimitiveType(type)) {
    if (value === null) return; // an array slot holding only an extension (`_given`)
    const problem = validatePrimitive(type, value);
    if (problem) issue(walk, 'value', problem, expression);
  } else if (!isObject(value)) {
    issue(walk, 'structure', `Expected ${type} (an object)`, expression);
    return;
  } else if (
    type === 'Resource' ||
    type === 'DomainResource' ||
    (element.children.length === 0 && !element.contentReference && isResourceValue(value))
  ) {
    await validateNested(walk, value, expression);
  } else if (element.children.length > 0 || element.contentReference) {
    const children =
      element.children.length > 0
        ? element.children
        : (schema.elements.get(element.contentReference as string)?.children ?? []);
    const target = element.contentReference ? schema.elements.get(element.contentReference) : element;
    // Inline backbone constraints are the element's own (checked below); a contentReference brings its target's.
    const inherited = element.contentReference ? (target?.constraints ?? []) : [];
    await validateObject(walk, schema, children, value, base, expression, inherited);
  } else {
    const datatype = await loadDatatype(walk, element, type, expression);
    if (datatype)
      await validateObject(walk, datatype, datatype.topLevel, value, base, expression, datatype.constraints);
  }
  await checkBinding(walk, element, type, value, expression);
  if (element.constraints.length > 0) await checkConstraints(walk, value, base, element.constraints, expression);
}

function isResourceValue(value: Json): boolean {
  return typeof value.resourceType === 'string';
}

async function loadDatatype(
  walk: Walk,
  element: ElementModel,
  type: string,
  expression: string,
): Promise<TypeSchema | undefined> {
  const profile = element.typeDetails.find((t) => t.code === type)?.profiles[0];
  try {
    if (profile && type !== 'Extension') return await walk.options.schemas.loadProfile(profile);
    return await walk.options.schemas.loadType(type);
  } catch (error) {
    issue(walk, 'not-supported', error instanceof Error ? error.message : String(error), expression, 'warning');
    return undefined;
  }
}

async function validateNested(walk: Walk, value: Json, expression: string): Promise<void> {
  const type = value.resourceType as string | undefined;
  if (!type) {
    issue(walk, 'structure', 'Missing resourceType', expression);
    return;
  }
  try {
    const schema = await walk.options.schemas.loadType(type);
    await validateObject(walk, schema, schema.topLevel, value, type, expression, schema.constraints);
  } catch (error) {
    issue(walk, 'structure', error instanceof Error ? error.message : String(error), expression);
  }
}

async function validateObject(
  walk: Walk,
  schema: TypeSchema,
  children: readonly ElementModel[],
  value: Json,
  base: string,
  expression: string,
  constraints: readonly ElementConstraint[],
): Promise<void> {
  const known = new Set<string>(['resourceType']);
  for (const element of children) {
    const keys = presentKeys(element, value);
    const childExpression = (key: string) => `${expression}.${key}`;
    for (const { key } of keys) known.add(key).add(`_${key}`);
    if (keys.length > 1) {
      issue(
        walk,
        'structure',
        `Only one of ${keys.map((k) => k.key).join(', ')} is allowed`,
        childExpression(keys[0].key),
      );
    }
    const shownKey = keys[0]?.key ?? element.name;
    const raw = keys[0] ? value[keys[0].key] : undefined;
    const extension = keys[0] ? value[`_${keys[0].key}`] : undefined;
    if (raw !== undefined && Array.isArray(raw) !== element.isArray) {
      issue(
        walk,
        'structure',
        element.isArray ? `Expected an array for ${shownKey}` : `Expected a single value for ${shownKey}`,
        childExpression(shownKey),
      );
      continue;
    }
    const items: unknown[] =
      raw === undefined ? (extension === undefined ? [] : [null]) : Array.isArray(raw) ? raw : [raw];
    const count = items.filter(
      (item, i) => item !== null || (Array.isArray(extension) && extension[i] !== null),
    ).length;
    if (count < element.min) {
      issue(
        walk,
        'required',
        element.min === 1 ? `Missing required property` : `At least ${element.min} values required`,
        childExpression(shownKey),
      );
    }
    if (count > element.max)
      issue(walk, 'structure', `At most ${element.max} values allowed`, childExpression(shownKey));
    if (element.max === 0 && count > 0) continue;
    const elementBase = `${base}.${element.isChoice ? element.name : element.name}`;
    for (let i = 0; i < items.length; i++) {
      const itemExpression = element.isArray ? `${childExpression(shownKey)}[${i}]` : childExpression(shownKey);
      await checkValue(walk, schema, element, keys[0].type, items[i], elementBase, itemExpression);
    }
    if (element.slicing) checkSlices(walk, element, items, childExpression(shownKey));
  }
  for (const key of Object.keys(value)) {
    if (!known.has(key)) issue(walk, 'structure', `Invalid additional property "${key}"`, `${expression}.${key}`);
  }
  await checkConstraints(walk, value, base, constraints, expression);
}

function checkSlices(walk: Walk, element: ElementModel, items: readonly unknown[], expression: string): void {
  const slicing = element.slicing;
  if (!slicing) return;
  const unmatched = new Set(items.map((_, i) => i));
  for (const slice of slicing.slices) {
    const matching = items.map((item, i) => (matchesSlice(item, slice, element) ? i : -1)).filter((i) => i >= 0);
    for (const i of matching) unmatched.delete(i);
    if (matching.length < slice.min) {
      issue(
        walk,
        'required',
        `Slice ${slice.name}: at least ${slice.min} required, found ${matching.length}`,
        `${expression}:${slice.name}`,
      );
    }
    if (matching.length > slice.max) {
      issue(
        walk,
        'structure',
        `Slice ${slice.name}: at most ${slice.max} allowed, found ${matching.length}`,
        `${expression}:${slice.name}`,
      );
    }
  }
  if (slicing.rules === 'closed') {
    for (const i of unmatched)
      issue(walk, 'structure', 'Value matches no slice of a closed slicing', `${expression}[${i}]`);
  }
}

/**
 * Validates a resource against a type or profile schema: cardinality, types, primitive formats,
 * fixed and pattern values, slices, required bindings (with `valueSets`) and FHIRPath invariants.
 * Each issue's `expression` is a FHIRPath with indexes (`Patient.name[0].given[1]`).
 */
export async function validateResource(
  resource: Resource,
  schema: TypeSchema,
  options: ValidateOptions,
): Promise<ValidationIssue[]> {
  const walk: Walk = { options, root: resource, issues: [], invariants: options.invariants ?? true };
  if (resource.resourceType !== schema.type) {
    issue(walk, 'structure', `Expected resourceType ${schema.type}`, 'resourceType');
    return walk.issues;
  }
  await validateObject(
    walk,
    schema,
    schema.topLevel,
    resource as unknown as Json,
    schema.type,
    schema.type,
    schema.constraints,
  );
  return walk.issues;
}

/** The issues as an OperationOutcome (empty issue list → an informational "All OK"). */
export function issuesToOutcome(issues: readonly OperationOutcomeIssue[]): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue:
      issues.length > 0
        ? [...issues]
        : [{ severity: 'information', code: 'informational', details: { text: 'All OK' } }],
  };
}
