import type { Resource } from '@medplum/fhirtypes';
import { choiceKey, isPrimitiveType } from '../model/buildTypeSchema';
import { isReadOnlyPath } from '../model/readOnlyElements';
import type { ElementModel, TypeSchema } from '../model/schemaTypes';
import { childElementsOf, schemaOfChildren } from './childElements';
import type { FormField, FormObject, FormValue, TypeLookup } from './formTypes';

type Json = Record<string, unknown>;

interface Context {
  schema: TypeSchema;
  lookup: TypeLookup;
  /** Path from the resource root without indexes (`meta.versionId`), for read-only elements. */
  resourcePath: string;
  inResource: boolean;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Which key of `value` holds this element, and with which type (choice keys name their type). */
function keyOf(element: ElementModel, value: Json): { key: string; type: string } | undefined {
  if (!element.isChoice)
    return element.name in value || `_${element.name}` in value
      ? { key: element.name, type: element.types[0] ?? 'string' }
      : undefined;
  for (const type of element.types) {
    const key = choiceKey(element.name, type);
    if (key in value || `_${key}` in value) return { key, type };
  }
  return undefined;
}

function buildValue(
  element: ElementModel,
  type: string,
  value: unknown,
  extension: unknown,
  expression: string,
  ctx: Context,
): FormValue {
  if (isPrimitiveType(type)) return { kind: 'primitive', type, value, extension };
  const children = childElementsOf(ctx.schema, element, type, ctx.lookup);
  if (!children || !isObject(value)) return { kind: 'opaque', type, value };
  return buildObject(value, children, type, expression, {
    ...ctx,
    schema: schemaOfChildren(ctx.schema, element, type, ctx.lookup),
  });
}

function buildObject(
  value: Json,
  children: readonly ElementModel[],
  type: string,
  expression: string,
  ctx: Context,
): FormObject {
  const used = new Set<string>();
  const fields: FormField[] = [];
  for (const element of children) {
    const found = keyOf(element, value);
    const key = found?.key ?? element.name + (element.isChoice ? '' : '');
    const fieldType = found?.type ?? (element.isChoice ? '' : (element.types[0] ?? 'string'));
    const resourcePath = ctx.resourcePath ? `${ctx.resourcePath}.${element.name}` : element.name;
    const field: FormField = {
      element,
      key: found ? key : element.isChoice ? '' : element.name,
      type: fieldType,
      values: [],
      readOnly: element.readOnly || (ctx.inResource && isReadOnlyPath(resourcePath)),
      slices: element.slicing?.slices ?? [],
    };
    if (found) {
      used.add(key);
      used.add(`_${key}`);
      const raw = value[key];
      const rawExtension = value[`_${key}`];
      const childCtx = { ...ctx, resourcePath };
      if (Array.isArray(raw) || Array.isArray(rawExtension)) {
        const items = Array.isArray(raw) ? raw : [];
        const extensions = Array.isArray(rawExtension) ? rawExtension : [];
        const length = Math.max(items.length, extensions.length);
        for (let i = 0; i < length; i++) {
          field.values.push(
            buildValue(
              element,
              fieldType,
              items[i] ?? null,
              extensions[i] ?? undefined,
              `${expression}.${key}[${i}]`,
              childCtx,
            ),
          );
        }
      } else {
        field.values.push(buildValue(element, fieldType, raw, rawExtension, `${expression}.${key}`, childCtx));
      }
    }
    fields.push(field);
  }
  const extras: Json = {};
  for (const [key, item] of Object.entries(value)) if (!used.has(key)) extras[key] = item;
  return { kind: 'object', type, expression, fields, extras, keyOrder: Object.keys(value) };
}

/**
 * The editor's model of a resource: one field per element of its schema (in definition order),
 * each with the resource's values; nested datatypes are expanded when their schema is loaded
 * (`SchemaLoader.loadElementTypes`), otherwise kept as opaque values. Everything the schema does not
 * describe (unknown keys, `resourceType`) is kept in `extras`.
 */
export function toFormModel(resource: Resource, schema: TypeSchema, lookup: TypeLookup): FormObject {
  return buildObject(resource as unknown as Json, schema.topLevel, schema.type, schema.type, {
    schema,
    lookup,
    resourcePath: '',
    inResource: schema.kind === 'resource',
  });
}

function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.keys(value).length === 0;
  return typeof value === 'number' && Number.isNaN(value);
}

function valueToJson(value: FormValue): { value: unknown; extension: unknown } {
  if (value.kind === 'primitive') return { value: value.value, extension: value.extension };
  if (value.kind === 'opaque') return { value: value.value, extension: undefined };
  return { value: fromFormModel(value), extension: undefined };
}

function fieldToJson(field: FormField): [string, unknown][] {
  if (!field.key) return [];
  const items = field.values
    .map(valueToJson)
    // Values left empty (a new row never filled in) are not saved.
    .filter((item) => !isEmptyValue(item.value) || !isEmptyValue(item.extension));
  if (items.length === 0) return [];
  const hasExtension = items.some((item) => !isEmptyValue(item.extension));
  const hasValue = items.some((item) => !isEmptyValue(item.value));
  const entries: [string, unknown][] = [];
  if (field.element.isArray) {
    if (hasValue) entries.push([field.key, items.map((item) => (isEmptyValue(item.value) ? null : item.value))]);
    if (hasExtension)
      entries.push([`_${field.key}`, items.map((item) => (isEmptyValue(item.extension) ? null : item.extension))]);
  } else {
    if (hasValue) entries.push([field.key, items[0].value]);
    if (hasExtension) entries.push([`_${field.key}`, items[0].extension]);
  }
  return entries;
}

/**
 * The JSON of a form object: its fields and extras, in the original key order first (so an
 * untouched resource comes back identical), then new keys in definition order.
 */
export function fromFormModel<T = Resource>(model: FormObject): T {
  const produced = new Map<string, unknown>();
  for (const field of model.fields) for (const [key, value] of fieldToJson(field)) produced.set(key, value);
  for (const [key, value] of Object.entries(model.extras)) produced.set(key, value);
  const result: Json = {};
  for (const key of model.keyOrder) if (produced.has(key)) result[key] = produced.get(key);
  for (const [key, value] of produced) if (!(key in result)) result[key] = value;
  return result as T;
}

/** Add allowed: below max (and not read-only). */
export function canAddValue(field: FormField): boolean {
  return !field.readOnly && field.values.length < (field.element.isArray ? field.element.max : 1);
}

/** Remove allowed only above min (app-spec §2.8). */
export function canRemoveValue(field: FormField): boolean {
  return !field.readOnly && field.values.length > field.element.min;
}

/**
 * An empty value of the field's type, for a new row: a primitive with no value, or an object with
 * the fields of its type (`schema` and `lookup` as for toFormModel; undefined children → opaque {}).
 */
export function emptyValue(
  field: FormField,
  schema: TypeSchema,
  lookup: TypeLookup,
  expression: string,
  initial: unknown = undefined,
): FormValue {
  const type = field.type || field.element.types[0] || 'string';
  const ctx: Context = { schema, lookup, resourcePath: field.element.path, inResource: schema.kind === 'resource' };
  const start = initial ?? (isPrimitiveType(type) ? undefined : {});
  return buildValue(field.element, type, start, undefined, expression, ctx);
}

/** Appends a value (empty, or `initial` JSON) up to max; returns false when max is reached. */
export function addValue(
  field: FormField,
  schema: TypeSchema,
  lookup: TypeLookup,
  parentExpression: string,
  initial?: unknown,
): boolean {
  if (!canAddValue(field)) return false;
  const index = field.values.length;
  const expression = field.element.isArray
    ? `${parentExpression}.${field.key}[${index}]`
    : `${parentExpression}.${field.key}`;
  field.values.push(emptyValue(field, schema, lookup, expression, initial));
  return true;
}

/** Removes the value at `index` when above min; returns false otherwise. */
export function removeValue(field: FormField, index: number): boolean {
  if (!canRemoveValue(field) || index < 0 || index >= field.values.length) return false;
  field.values.splice(index, 1);
  return true;
}

/** Chooses another type for a choice element (`value[x]`): the key changes and the old value goes. */
export function switchChoiceType(field: FormField, type: string): void {
  if (!field.element.isChoice || !field.element.types.includes(type)) {
    throw new Error(`${type} is not a type of ${field.element.path}`);
  }
  if (field.type === type && field.key) return;
  field.type = type;
  field.key = choiceKey(field.element.name, type);
  field.values = [];
}
