import type { ElementModel, SliceModel, SlicingModel, TypeSchema } from '../model/schemaTypes';
import { matchesSlice, sliceInitialValue, sliceOf } from './slices';

/** The entries of a sliced array, by slice (positions in the array), and the entries that match no slice. */
export interface SliceGroups {
  slices: { slice: SliceModel; indexes: number[] }[];
  /** Positions of the values that match no slice (shown as the ordinary array when slicing is open). */
  others: number[];
}

/** Assigns each value of a sliced element's array to its slice (the engine's `sliceOf`), keeping positions. */
export function groupBySlice(items: readonly unknown[], element: ElementModel): SliceGroups {
  const slices = (element.slicing?.slices ?? []).map((slice) => ({ slice, indexes: [] as number[] }));
  const others: number[] = [];
  items.forEach((item, index) => {
    const slice = sliceOf(item, element);
    const group = slice && slices.find((g) => g.slice === slice);
    if (group) group.indexes.push(index);
    else others.push(index);
  });
  return { slices, others };
}

/** Another entry of the slice allowed: below the slice's max and the element's max. */
export function canAddToSlice(slice: SliceModel, count: number, element: ElementModel, total: number): boolean {
  return count < slice.max && total < element.max;
}

/** An entry of the slice may be removed only above the slice's min (app-spec §2.8 for slices). */
export function canRemoveFromSlice(slice: SliceModel, count: number): boolean {
  return count > slice.min;
}

/** Values that match no slice may be added only when the slicing is open. */
export function acceptsOtherValues(slicing: SlicingModel): boolean {
  return slicing.rules !== 'closed';
}

/** One child input of a slice entry: its element as the slice constrains it, and whether it is fixed. */
export interface SliceEntryChild {
  element: ElementModel;
  /**
   * The slice fixes this child (fixed/pattern value, or the discriminator reads it): the form shows it
   * read-only so the entry keeps matching its slice.
   */
  fixed: boolean;
}

/** `component.value[x]` → `value[x]`: the key of a child in a slice's own element map. */
function relativeKey(child: ElementModel): string {
  const segments = child.path.split('.');
  return segments[segments.length - 1];
}

/** The child as the slice constrains it: cardinality, types, binding and fixed values from the slice. */
function constrained(base: ElementModel, overlay: ElementModel | undefined): ElementModel {
  if (!overlay) return base;
  return {
    ...base,
    min: overlay.min,
    max: overlay.max,
    required: overlay.required,
    types: overlay.types.length > 0 ? overlay.types : base.types,
    typeDetails: overlay.typeDetails.length > 0 ? overlay.typeDetails : base.typeDetails,
    targetProfiles: overlay.targetProfiles.length > 0 ? overlay.targetProfiles : base.targetProfiles,
    binding: overlay.binding ?? base.binding,
    short: overlay.short ?? base.short,
    definition: overlay.definition ?? base.definition,
    fixed: overlay.fixed,
    pattern: overlay.pattern,
    fixedValue: overlay.fixedValue,
    patternValue: overlay.patternValue,
    readOnly: base.readOnly || overlay.readOnly,
    constraints: overlay.constraints.length > 0 ? overlay.constraints : base.constraints,
    slicing: overlay.slicing?.slices.length ? overlay.slicing : base.slicing,
  };
}

/** Children named by a discriminator path (`code`, `coding.system` → `coding`; `$this` → the pattern's keys). */
function discriminatedChildren(slice: SliceModel, slicing: SlicingModel): Set<string> {
  const names = new Set<string>();
  for (const discriminator of slicing.discriminators) {
    if (discriminator.type === 'type') continue;
    if (discriminator.path === '$this') {
      const own = slice.fixed?.value ?? slice.pattern?.value;
      if (own && typeof own === 'object') for (const key of Object.keys(own)) names.add(key);
      continue;
    }
    names.add(discriminator.path.split('.')[0]);
  }
  return names;
}

function isSliced(element: ElementModel): boolean {
  return (element.slicing?.slices.length ?? 0) > 0;
}

/**
 * The inputs of one entry of a slice, in definition order: `children` are the entry type's children
 * (inline backbone children, or the datatype's / extension profile's top-level elements), narrowed by
 * the slice's own constraints; an extension's url first. Left out: `id`, elements the slice forbids (max 0, e.g. a complex
 * extension's value[x]) and extensions the profile does not slice (their data stays in the entry).
 */
export function sliceEntryChildren(
  children: readonly ElementModel[],
  slice: SliceModel,
  slicing: SlicingModel,
): SliceEntryChild[] {
  const discriminated = discriminatedChildren(slice, slicing);
  const result: SliceEntryChild[] = [];
  for (const child of children) {
    const key = relativeKey(child);
    const element = constrained(child, slice.elements.get(key));
    if (element.name === 'id' || element.max === 0) continue;
    if ((element.name === 'extension' || element.name === 'modifierExtension') && !isSliced(element)) continue;
    const fixed =
      element.fixedValue !== undefined ||
      element.patternValue !== undefined ||
      discriminated.has(element.isChoice ? key : element.name);
    result.push({ element, fixed });
  }
  // An extension's url says what it is: shown first, before its nested extensions.
  return [...result.filter((c) => c.element.name === 'url'), ...result.filter((c) => c.element.name !== 'url')];
}

/**
 * The array after the values matching no slice changed from `before` to `next` (the ordinary array
 * input changed one of them, added one at the end or removed one): slice entries keep their positions,
 * the other values keep their order, an added value goes at the end.
 */
export function replaceOtherValues(
  items: readonly unknown[],
  positions: readonly number[],
  before: readonly unknown[],
  next: readonly unknown[],
): unknown[] {
  const result = [...items];
  if (next.length < before.length) {
    // One value removed: the first position where the lists differ (by identity) is the removed one.
    let removed = before.findIndex((value, i) => value !== next[i]);
    if (removed < 0) removed = before.length - 1;
    const dropped = new Set(positions.slice(removed, removed + (before.length - next.length)));
    const kept = result.filter((_, index) => !dropped.has(index));
    // Positions after the removed one shift; re-apply the remaining values in order.
    const remainingPositions = positions
      .filter((p) => !dropped.has(p))
      .map((p) => p - [...dropped].filter((d) => d < p).length);
    remainingPositions.forEach((position, i) => (kept[position] = next[i]));
    return kept;
  }
  positions.forEach((position, i) => {
    if (i < next.length) result[position] = next[i];
  });
  for (let i = positions.length; i < next.length; i++) result.push(next[i]);
  return result;
}

/**
 * Where a new entry of `slice` goes: after the slice's last entry, else before the first entry of a
 * later slice (slices keep their definition order), else at the end.
 */
export function sliceInsertionIndex(groups: SliceGroups, slice: SliceModel, length: number): number {
  const at = groups.slices.findIndex((g) => g.slice === slice);
  const own = groups.slices[at]?.indexes ?? [];
  if (own.length > 0) return own[own.length - 1] + 1;
  const later = groups.slices.slice(at + 1).flatMap((g) => g.indexes);
  return later.length > 0 ? Math.min(...later) : length;
}

type Json = Record<string, unknown>;

/**
 * The JSON a new entry of a slice starts with when its type is a profile (an extension slice such as
 * US Core race): the slice's own fixed values and url, plus, from the loaded `profile`, its fixed url
 * and the entries its required nested slices need (race: the `text` extension).
 */
export function profiledSliceInitialValue(slice: SliceModel, profile: TypeSchema | undefined): unknown {
  const value = sliceInitialValue(slice);
  if (!profile || typeof value !== 'object' || value === null) return value;
  const entry = value as Json;
  for (const element of profile.topLevel) {
    const fixed = element.fixedValue?.value ?? element.patternValue?.value;
    if (fixed !== undefined && entry[element.name] === undefined && !element.isChoice)
      entry[element.name] = structuredClone(fixed);
    if (!element.isArray || !element.slicing) continue;
    for (const nested of element.slicing.slices) {
      const present = Array.isArray(entry[element.name]) ? (entry[element.name] as unknown[]) : [];
      const count = present.filter((item) => matchesSlice(item, nested, element)).length;
      const added = Array.from({ length: Math.max(0, nested.min - count) }, () => sliceInitialValue(nested));
      if (added.length > 0) entry[element.name] = [...present, ...added];
    }
  }
  return entry;
}

/**
 * The constraints a slice puts inside one of its children (`value[x].system` and `value[x].code` fixed
 * under US Core blood pressure's components), as a slice of that child, so its parts can be shown with
 * the fixed ones read-only. undefined when the slice fixes nothing below the child, or when the child
 * is an array or a choice of several types (the ordinary input is used then).
 */
export function nestedSliceConstraints(slice: SliceModel, child: ElementModel): SliceModel | undefined {
  if (child.isArray || child.types.length !== 1) return undefined;
  const key = relativeKey(child);
  const elements = new Map<string, ElementModel>();
  let fixes = false;
  for (const [path, element] of slice.elements) {
    if (!path.startsWith(`${key}.`)) continue;
    elements.set(path.slice(key.length + 1), element);
    if (element.fixedValue !== undefined || element.patternValue !== undefined) fixes = true;
  }
  if (!fixes) return undefined;
  const own = slice.elements.get(key);
  return {
    name: child.name,
    min: own?.min ?? child.min,
    max: own?.max ?? child.max,
    types:
      child.typeDetails.length > 0 ? child.typeDetails : [{ code: child.types[0], profiles: [], targetProfiles: [] }],
    elements,
  };
}
