import type { ElementModel, SliceModel, TypeSchema } from '../model/schemaTypes';
import { valuesAtPath } from '../search/searchColumns';
import { addValue } from './formModel';
import type { FormField, FormObject, FormValue, TypeLookup } from './formTypes';
import { fromFormModel } from './formModel';
import { matchesPattern } from './patternMatch';

type Json = Record<string, unknown>;

/** The value a discriminator path must have in this slice (from fixed/pattern values or the extension url). */
function expectedAt(slice: SliceModel, path: string): unknown {
  if (path === '$this') return slice.fixed?.value ?? slice.pattern?.value;
  const element = slice.elements.get(path);
  const expected = element?.fixedValue?.value ?? element?.patternValue?.value;
  if (expected !== undefined) return expected;
  // Extension slices name their extension by profile: the url is the profile's canonical.
  if (path === 'url') return slice.types.find((t) => t.code === 'Extension')?.profiles[0];
  return undefined;
}

/** Does this JSON value belong to the slice (discriminators value, pattern and type)? */
export function matchesSlice(item: unknown, slice: SliceModel, element: ElementModel): boolean {
  const discriminators = element.slicing?.discriminators ?? [];
  if (discriminators.length === 0) return false;
  return discriminators.every((d) => {
    if (d.type === 'type') {
      const wanted = slice.types.map((t) => t.code);
      const actual = (item as Json | undefined)?.resourceType;
      return typeof actual === 'string' && wanted.includes(actual);
    }
    const expected = expectedAt(slice, d.path);
    if (expected === undefined) return false;
    const actual = d.path === '$this' ? [item] : valuesAtPath(item as Json, d.path.replace(/\.resolve\(\)/, ''));
    return actual.some((value) => matchesPattern(value, expected));
  });
}

/** The slice a value of a sliced element belongs to, if any. */
export function sliceOf(item: unknown, element: ElementModel): SliceModel | undefined {
  return element.slicing?.slices.find((slice) => matchesSlice(item, slice, element));
}

function setAt(target: Json, path: string, value: unknown): void {
  const segments = path.split('.');
  let current = target;
  for (const segment of segments.slice(0, -1)) {
    const next = current[segment];
    if (Array.isArray(next)) current = (next[0] ?? (next[0] = {})) as Json;
    else current = (current[segment] ??= {}) as Json;
  }
  const last = segments[segments.length - 1].replace('[x]', '');
  current[last] = value;
}

/** The JSON a new entry of a slice starts with: its fixed and pattern values (and extension url). */
export function sliceInitialValue(slice: SliceModel): unknown {
  const own = slice.fixed?.value ?? slice.pattern?.value;
  if (own !== undefined && (typeof own !== 'object' || own === null)) return own;
  const value: Json = own ? structuredClone(own as Json) : {};
  const extensionUrl = slice.types.find((t) => t.code === 'Extension')?.profiles[0];
  if (extensionUrl) value.url = extensionUrl;
  for (const [path, element] of slice.elements) {
    const fixed = element.fixedValue?.value ?? element.patternValue?.value;
    if (fixed !== undefined && !path.includes('[x]')) setAt(value, path, structuredClone(fixed));
  }
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
