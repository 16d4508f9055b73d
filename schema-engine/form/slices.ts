import { choiceKey } from '../model/buildTypeSchema';
import type { ElementModel, SliceModel, TypeSchema } from '../model/schemaTypes';
import { valuesAtPath } from '../search/searchColumns';
import { addValue } from './formModel';
import type { FormField, FormObject, FormValue, TypeLookup } from './formTypes';
import { fromFormModel } from './formModel';
import { matchesPattern } from './patternMatch';

type Json = Record<string, unknown>;

/** Values a discriminator path must have in a set of slice elements (fixed/pattern, nested slices, extension urls). */
function expectedValues(elements: Map<string, ElementModel>, path: string): unknown[] {
  const segments = path.split('.');
  for (let length = segments.length; length > 0; length--) {
    const prefix = segments.slice(0, length).join('.');
    const rest = segments.slice(length).join('.');
    const element = elements.get(prefix) ?? elements.get(`${prefix}[x]`);
    if (!element) continue;
    const own = element.fixedValue?.value ?? element.patternValue?.value;
    if (own !== undefined) return rest ? valuesAtPath(own as Json, rest) : [own];
    if (element.slicing && rest) {
      const nested = element.slicing.slices.flatMap((slice) => expectedValues(slice.elements, rest));
      if (nested.length > 0) return nested;
    }
  }
  return [];
}

function expectedAt(slice: SliceModel, path: string): unknown[] {
  if (path === '$this') {
    const own = slice.fixed?.value ?? slice.pattern?.value;
    return own === undefined ? [] : [own];
  }
  const found = expectedValues(slice.elements, path);
  if (found.length > 0) return found;
  // Extension slices name their extension by profile: the url is the profile's canonical.
  const profile = path === 'url' ? slice.types.find((t) => t.code === 'Extension')?.profiles[0] : undefined;
  return profile ? [profile] : [];
}

/** Does this JSON value belong to the slice (discriminators value, pattern and type)? */
export function matchesSlice(item: unknown, slice: SliceModel, element: ElementModel): boolean {
  const discriminators = element.slicing?.discriminators ?? [];
  if (discriminators.length === 0 || item === null || item === undefined) return false;
  return discriminators.every((d) => {
    if (d.type === 'type') {
      const wanted = slice.types.map((t) => t.code);
      const actual = (item as Json | undefined)?.resourceType;
      return typeof actual === 'string' && wanted.includes(actual);
    }
    const expected = expectedAt(slice, d.path);
    if (expected.length === 0) return false;
    const actual = d.path === '$this' ? [item] : valuesAtPath(item as Json, d.path.replace(/\.resolve\(\)/, ''));
    return expected.some((want) => actual.some((value) => matchesPattern(value, want)));
  });
}

/** The slice a value of a sliced element belongs to, if any. */
export function sliceOf(item: unknown, element: ElementModel): SliceModel | undefined {
  return element.slicing?.slices.find((slice) => matchesSlice(item, slice, element));
}

/** Sets a value at a dotted path, creating arrays for array elements and choice keys for one-type choices. */
function setAt(target: Json, path: string, value: unknown, elements: Map<string, ElementModel>): void {
  const segments = path.split('.');
  let current = target;
  for (let i = 0; i < segments.length; i++) {
    const prefix = segments.slice(0, i + 1).join('.');
    const element = elements.get(prefix);
    let key = segments[i];
    if (key.endsWith('[x]')) {
      if (element?.types.length !== 1) return;
      key = choiceKey(key.slice(0, -3), element.types[0]);
    }
    if (i === segments.length - 1) {
      current[key] = element?.isArray && !Array.isArray(value) ? [value] : value;
      return;
    }
    if (element?.isArray) {
      const list = (Array.isArray(current[key]) ? current[key] : (current[key] = [{}])) as Json[];
      current = list[0] ??= {};
    } else current = (current[key] ??= {}) as Json;
  }
}

/** The JSON a set of slice elements starts with: fixed and pattern values, and required nested slices. */
function initialFrom(elements: Map<string, ElementModel>): Json {
  const value: Json = {};
  for (const [path, element] of elements) {
    const fixed = element.fixedValue?.value ?? element.patternValue?.value;
    if (fixed !== undefined) setAt(value, path, structuredClone(fixed), elements);
    for (const nested of element.slicing?.slices ?? []) {
      if (nested.min < 1) continue;
      const entry = sliceInitialValue(nested);
      const existing = valuesAtPath(value, path);
      if (existing.some((item) => matchesSlice(item, nested, element))) continue;
      setAt(value, path, [...existing, entry], elements);
    }
  }
  return value;
}

/** The JSON a new entry of a slice starts with: its fixed and pattern values (and extension url). */
export function sliceInitialValue(slice: SliceModel): unknown {
  const own = slice.fixed?.value ?? slice.pattern?.value;
  if (own !== undefined && (typeof own !== 'object' || own === null)) return own;
  const value: Json = { ...(own ? structuredClone(own as Json) : {}), ...initialFrom(slice.elements) };
  const extensionUrl = slice.types.find((t) => t.code === 'Extension')?.profiles[0];
  if (extensionUrl && value.url === undefined) value.url = extensionUrl;
  return value;
}

/**
 * For a profiled form: adds, for every sliced element of the object (recursively), entries until each
 * slice holds its min, pre-filled with the slice's fixed values. Existing entries are untouched.
 * Returns the number of entries added.
 */
export function applySliceDefaults(model: FormObject, schema: TypeSchema, lookup: TypeLookup): number {
  let added = 0;
  for (const field of model.fields) {
    for (const slice of field.slices) {
      const present = field.values.filter((v) => matchesSlice(formValueJson(v), slice, field.element)).length;
      for (let i = present; i < slice.min; i++) {
        if (!field.key) break;
        if (addValue(field, schema, lookup, model.expression, sliceInitialValue(slice))) added++;
      }
    }
    for (const value of field.values) if (value.kind === 'object') added += applySliceDefaults(value, schema, lookup);
  }
  return added;
}

function formValueJson(value: FormValue): unknown {
  return value.kind === 'object' ? fromFormModel(value) : value.value;
}

export type { FormField };

/**
 * For a new resource under a profile: required top-level elements the profile fixes (fixed or pattern
 * value, e.g. US Core blood pressure's `code` 85354-9) start with that value. Elements holding a value
 * are untouched. Returns the number of elements set.
 */
export function applyFixedDefaults(model: FormObject, schema: TypeSchema, lookup: TypeLookup): number {
  let set = 0;
  for (const field of model.fields) {
    const fixed = field.element.fixedValue?.value ?? field.element.patternValue?.value;
    if (fixed === undefined || field.element.min < 1 || field.values.length > 0 || !field.key) continue;
    if (field.element.isChoice) continue;
    if (addValue(field, schema, lookup, model.expression, structuredClone(fixed))) set++;
  }
  return set;
}
