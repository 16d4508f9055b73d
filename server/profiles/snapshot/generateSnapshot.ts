import type { ElementDefinition, ElementDefinitionConstraint, StructureDefinition } from '@medplum/fhirtypes';
import { SnapshotError } from './snapshotError';
import { SnapshotBudget } from './snapshotLimits';

/** Finds a StructureDefinition by canonical url (base definitions, datatypes, extension profiles). */
export type DefinitionResolver = (url: string) => Promise<StructureDefinition | undefined>;

export { SnapshotError };

const CORE = 'http://hl7.org/fhir/StructureDefinition/';
/** Deeper base chains than this are taken for a loop (a profile based on itself, directly or not). */
const MAX_BASE_DEPTH = 12;

type Element = ElementDefinition & Record<string, unknown>;

/** Extensions that describe a definition itself (its maturity and status), not what profiles of it inherit. */
const NOT_INHERITED = new Set([
  'http://hl7.org/fhir/StructureDefinition/structuredefinition-standards-status',
  'http://hl7.org/fhir/StructureDefinition/structuredefinition-normative-version',
  'http://hl7.org/fhir/StructureDefinition/structuredefinition-fmm',
  'http://hl7.org/fhir/StructureDefinition/structuredefinition-wg',
]);

/** A base element as a profile inherits it: without the base's own status extensions. */
function inherit(element: ElementDefinition): Element {
  const copy = clone(element) as Element;
  if (copy.extension) {
    copy.extension = copy.extension.filter((extension) => !NOT_INHERITED.has(extension.url));
    if (copy.extension.length === 0) delete copy.extension;
  }
  return copy;
}

const clone = <T>(value: T): T => structuredClone(value);

/** The element id without slice names (`Patient.extension:race.url` → `Patient.extension.url`). */
export function unslicedId(id: string): string {
  return id
    .split('.')
    .map((part) => part.split(':')[0])
    .join('.');
}

function idOf(element: ElementDefinition): string {
  if (element.id) return element.id;
  return element.sliceName ? `${element.path}:${element.sliceName}` : (element.path ?? '');
}

/**
 * The snapshot of a profile given as a differential: its base definition's snapshot (generated
 * first when the base has none), with each differential element applied in order. An element the
 * base does not list is found by unfolding the datatype of its nearest listed ancestor
 * (Patient.identifier.system: Identifier's elements under Patient.identifier); a new slice starts
 * as a copy of the element it slices, with that element's unfolded children, after the slices
 * already there. Properties are merged as the FHIR profiling rules say: the differential's value
 * replaces the base's, except constraints (added, replaced by key), conditions, aliases and
 * mappings (added). An extension slice whose profile is named takes its short text, definition,
 * comment and summary flag from that extension's definition unless the differential gives its
 * own; a new definition without a comment drops the base's comment (it explained the old one).
 */
export async function generateSnapshot(
  profile: StructureDefinition,
  resolve: DefinitionResolver,
  depth = 0,
  budget = new SnapshotBudget(),
): Promise<ElementDefinition[]> {
  const differential = profile.differential?.element ?? [];
  budget.checkDifferential(differential.length);
  if (!profile.baseDefinition) {
    throw new SnapshotError(
      'A differential needs a baseDefinition to build its snapshot from',
      'StructureDefinition.baseDefinition',
    );
  }
  if (depth > MAX_BASE_DEPTH) {
    throw new SnapshotError(
      `Base definitions loop at ${profile.url ?? profile.baseDefinition}`,
      'StructureDefinition.baseDefinition',
    );
  }
  const base = await snapshotOf(
    profile.baseDefinition,
    resolve,
    depth + 1,
    'StructureDefinition.baseDefinition',
    budget,
  );
  const elements: Element[] = base.map(inherit);
  const root = profile.type && elements[0]?.path !== profile.type ? renameRoot(elements, profile.type) : elements;
  budget.checkSize(root.length, 'StructureDefinition.baseDefinition');
  // A specialization defines a new type; only a constraint is held to its base's cardinalities.
  const constrains = profile.derivation !== 'specialization';
  const work = new SnapshotWork(root, resolve, depth, budget);
  for (const [index, diff] of differential.entries()) {
    const path = `StructureDefinition.differential.element[${index}]`;
    if (!diff.path) throw new SnapshotError('Differential element without a path', `${path}.path`);
    budget.checkId(idOf(diff), diff.id ? `${path}.id` : `${path}.path`);
    const rootPath = root[0]?.path ?? '';
    if (diff.path !== rootPath && !diff.path.startsWith(`${rootPath}.`)) {
      throw new SnapshotError(`Element ${diff.path} is not part of ${rootPath}`, `${path}.path`);
    }
    const at = await work.locate(diff, path);
    await work.apply(at, diff, path, constrains);
  }
  return work.elements;
}

/** A specialization's base (DomainResource for a new type) is listed under the new type's name. */
function renameRoot(elements: Element[], type: string): Element[] {
  const from = elements[0].path as string;
  const rename = (text: string | undefined) =>
    text === from ? type : text?.startsWith(`${from}.`) ? type + text.slice(from.length) : text;
  return elements.map((element) => ({ ...element, id: rename(element.id), path: rename(element.path) }) as Element);
}

async function snapshotOf(
  url: string,
  resolve: DefinitionResolver,
  depth: number,
  expression: string,
  budget: SnapshotBudget,
): Promise<ElementDefinition[]> {
  const definition = await resolve(url);
  if (!definition) throw new SnapshotError(`Definition not found: ${url}`, expression);
  if (definition.snapshot?.element?.length) return definition.snapshot.element;
  if (!definition.differential?.element?.length) {
    throw new SnapshotError(`${url} has neither a snapshot nor a differential`, expression);
  }
  return generateSnapshot(definition, resolve, depth, budget);
}

class SnapshotWork {
  /** Each element as it was before the differential changed it: what a new slice starts from. */
  private readonly pristine = new Map<string, Element>();
  /** The slices this differential adds (not those of the base): held to their element's max only. */
  private readonly newSlices = new Set<string>();

  constructor(
    readonly elements: Element[],
    private readonly resolve: DefinitionResolver,
    private readonly depth: number,
    private readonly budget: SnapshotBudget,
  ) {
    for (const element of elements) this.pristine.set(idOf(element), clone(element));
  }

  private indexOf(id: string): number {
    return this.elements.findIndex((element) => idOf(element) === id);
  }

  /** The index of the element a differential element constrains, unfolding and slicing as needed. */
  async locate(diff: ElementDefinition, expression: string): Promise<number> {
    const id = idOf(diff);
    const found = this.indexOf(id);
    if (found >= 0) return found;
    const parts = id.split('.');
    const last = parts[parts.length - 1];
    if (last.includes(':')) {
      // A new slice of an element listed (or listable) under the same parent.
      const sliced = [...parts.slice(0, -1), last.split(':')[0]].join('.');
      const slicedAt = this.indexOf(sliced) >= 0 ? this.indexOf(sliced) : await this.unfoldTo(sliced, expression);
      return this.addSlice(slicedAt, last.slice(last.indexOf(':') + 1), expression);
    }
    return this.unfoldTo(id, expression);
  }

  /** Lists the children of the nearest listed ancestor's type until `id` is listed. */
  private async unfoldTo(id: string, expression: string): Promise<number> {
    const parts = id.split('.');
    for (let length = parts.length - 1; length > 0; length--) {
      const ancestorId = parts.slice(0, length).join('.');
      const at = this.indexOf(ancestorId);
      if (at < 0) {
        if (parts[length - 1].includes(':')) {
          // A slice's child named before the slice itself: list the slice first.
          await this.locate({ id: ancestorId, path: unslicedId(ancestorId) }, expression);
          return this.unfoldTo(id, expression);
        }
        continue;
      }
      if (this.hasChildren(at)) break;
      await this.unfold(at, expression);
      const now = this.indexOf(id);
      if (now >= 0) return now;
      return this.unfoldTo(id, expression);
    }
    throw new SnapshotError(`No element ${id} in the base definition or its datatypes`, expression);
  }

  private hasChildren(at: number): boolean {
    const id = idOf(this.elements[at]);
    return this.elements[at + 1] !== undefined && idOf(this.elements[at + 1]).startsWith(`${id}.`);
  }

  /** Inserts the elements of the element's datatype (or of the backbone it refers to) under it. */
  private async unfold(at: number, expression: string): Promise<void> {
    this.budget.unfold(expression);
    const parent = this.elements[at];
    const parentId = idOf(parent);
    const parentPath = parent.path as string;
    let children: { relative: string; element: Element }[];
    if (parent.contentReference) {
      const target = parent.contentReference.slice(parent.contentReference.indexOf('#') + 1);
      children = this.elements
        .filter((element) => (element.path as string).startsWith(`${target}.`) && !(element.id ?? '').includes(':'))
        .map((element) => ({ relative: (element.path as string).slice(target.length), element }));
      children = children.map(({ relative }) => ({
        relative,
        element: clone(
          this.pristine.get(target + relative) ?? (this.elements.find((e) => e.path === target + relative) as Element),
        ),
      }));
    } else {
      const types = parent.type ?? [];
      if (types.length !== 1) {
        throw new SnapshotError(
          `Cannot list the children of ${parentId}: it has ${types.length} types (constrain it to one type first)`,
          expression,
        );
      }
      const code = types[0].code as string;
      const typeSnapshot = await snapshotOf(
        code.includes('/') ? code : CORE + code,
        this.resolve,
        this.depth + 1,
        expression,
        this.budget,
      );
      const typeRoot = typeSnapshot[0].path as string;
      children = typeSnapshot.slice(1).map((element) => ({
        relative: (element.id ?? (element.path as string)).slice(typeRoot.length),
        element: inherit(element),
      }));
    }
    const inserted = children.map(({ relative, element }) => {
      const pathRelative = unslicedId(relative);
      return { ...element, id: parentId + relative, path: parentPath + pathRelative } as Element;
    });
    this.budget.checkSize(this.elements.length + inserted.length, expression);
    for (const element of inserted) this.pristine.set(idOf(element), clone(element));
    this.elements.splice(at + 1, 0, ...inserted);
  }

  /** A new slice: a copy of the sliced element (as the base had it) and its children, after the existing slices. */
  private addSlice(slicedAt: number, sliceName: string, expression: string): number {
    const sliced = this.elements[slicedAt];
    const slicedId = idOf(sliced);
    let end = slicedAt + 1;
    while (end < this.elements.length) {
      const id = idOf(this.elements[end]);
      if (!(id.startsWith(`${slicedId}.`) || id.startsWith(`${slicedId}:`))) break;
      end++;
    }
    const sliceId = `${slicedId}:${sliceName}`;
    const copyOf = (element: Element): Element => clone(this.pristine.get(idOf(element)) ?? element);
    const head = copyOf(sliced);
    delete head.slicing;
    const slice: Element = { ...head, id: sliceId, sliceName };
    this.newSlices.add(sliceId);
    // Children of the unsliced element (not of its other slices) come along under the slice's id.
    const children: Element[] = [];
    for (let i = slicedAt + 1; i < end; i++) {
      const id = idOf(this.elements[i]);
      if (!id.startsWith(`${slicedId}.`)) break;
      const copy = copyOf(this.elements[i]);
      children.push({ ...copy, id: sliceId + id.slice(slicedId.length) });
    }
    this.budget.checkSize(this.elements.length + 1 + children.length, expression);
    for (const element of [slice, ...children]) this.pristine.set(idOf(element), clone(element));
    this.elements.splice(end, 0, slice, ...children);
    return end;
  }

  /** For a slice this differential adds, the element it slices (as constrained so far). */
  private slicedBy(element: Element): Element | undefined {
    const id = idOf(element);
    if (!this.newSlices.has(id)) return undefined;
    const at = this.indexOf(id.slice(0, id.lastIndexOf(':')));
    return at >= 0 ? this.elements[at] : undefined;
  }

  /**
   * Merges a differential element into the snapshot element at `at`. `expression` names the
   * differential element in errors; with `constrains`, its cardinality is held to the base's.
   */
  async apply(at: number, diff: ElementDefinition, expression: string, constrains: boolean): Promise<void> {
    const target = this.elements[at];
    if (constrains) checkCardinality(target, diff, expression, this.slicedBy(target));
    const extensionProfile = diff.type?.find((type) => type.code === 'Extension')?.profile?.[0];
    if (extensionProfile && target.sliceName) {
      // An extension slice describes itself as its extension's definition does.
      const extension = await this.resolve(extensionProfile);
      if (!extension && (diff.min ?? target.min ?? 0) >= 1) {
        // A required slice of an unknown extension: no resource could ever fill it as the form
        // would (it cannot show the extension's value), so the profile is refused now.
        throw new SnapshotError(
          `Extension definition not found: ${extensionProfile} (the slice ${idOf(target)} is required, min ${diff.min ?? target.min})`,
          expression,
        );
      }
      const extensionRoot = extension?.snapshot?.element?.[0];
      if (extensionRoot) {
        for (const key of ['short', 'definition', 'comment', 'isSummary'] as const) {
          if (extensionRoot[key] === undefined) delete target[key];
          else (target as Record<string, unknown>)[key] = extensionRoot[key];
        }
      }
    }
    // The base's comment explains the base's definition: a new definition without a comment drops it.
    if (diff.definition !== undefined && diff.definition !== target.definition && diff.comment === undefined) {
      delete target.comment;
    }
    for (const [key, value] of Object.entries(diff)) {
      if (key === 'id' || key === 'path' || value === undefined) continue;
      target[key] = mergeProperty(key, target[key], value);
    }
  }
}

/** `max` as a number: `*` is unbounded; undefined when absent or not a cardinality (eld-3 says so). */
function maxOf(max: string | undefined): number | undefined {
  if (max === '*') return Infinity;
  return max !== undefined && /^[0-9]+$/.test(max) ? Number(max) : undefined;
}

/**
 * The FHIR profiling rules on cardinality (profiling.html, ElementDefinition eld-2): a profile may
 * only constrain. The element's min may not exceed its max; its max may not exceed the base's max
 * (`*` included) and its min may not fall below the base's min. A slice is held to the max of the
 * element it slices, not to its min (a slice may be optional where the element is required: the
 * other slices, or unsliced values, may fill it). `slotBase` is the snapshot element before the
 * merge; `sliced`, for a slice this differential adds, the element it slices as constrained so far.
 */
export function checkCardinality(
  slotBase: ElementDefinition,
  diff: ElementDefinition,
  expression: string,
  sliced?: ElementDefinition,
): void {
  if (diff.min === undefined && diff.max === undefined) return;
  const id = idOf(slotBase);
  const isSlice = sliced !== undefined;
  // A new slice starts as a copy of the element as the base had it; the element may be narrower now.
  const base =
    sliced && (maxOf(sliced.max) ?? Infinity) < (maxOf(slotBase.max) ?? Infinity)
      ? { ...slotBase, max: sliced.max }
      : slotBase;
  const fail = (text: string) => {
    throw new SnapshotError(`${id}: ${text} (a profile may only constrain its base's cardinality)`, expression);
  };
  const baseMax = maxOf(base.max);
  const diffMax = maxOf(diff.max);
  if (diff.max !== undefined && diffMax === undefined) {
    throw new SnapshotError(`${id}: max "${diff.max}" is neither a number nor "*"`, `${expression}.max`);
  }
  const min = diff.min ?? base.min ?? 0;
  const max = diffMax ?? baseMax;
  if (diffMax !== undefined && baseMax !== undefined && diffMax > baseMax) {
    fail(`max ${diff.max} is more than the base's max ${base.max}`);
  }
  if (!isSlice && diff.min !== undefined && base.min !== undefined && diff.min < base.min) {
    fail(`min ${diff.min} is less than the base's min ${base.min}`);
  }
  if (max !== undefined && min > max) {
    if (diff.max === undefined) fail(`min ${min} is more than the base's max ${base.max}`);
    else if (diff.min === undefined && !isSlice) fail(`max ${diff.max} is less than the base's min ${base.min}`);
    else {
      throw new SnapshotError(
        `${id}: min ${min} is more than max ${diff.max ?? base.max} (eld-2: min <= max)`,
        expression,
      );
    }
  }
}

function mergeProperty(key: string, current: unknown, value: unknown): unknown {
  switch (key) {
    case 'constraint': {
      const merged = [...((current as ElementDefinitionConstraint[] | undefined) ?? [])];
      for (const constraint of value as ElementDefinitionConstraint[]) {
        const at = merged.findIndex((c) => c.key === constraint.key);
        if (at >= 0) merged[at] = clone(constraint);
        else merged.push(clone(constraint));
      }
      return merged;
    }
    case 'condition':
    case 'alias': {
      const merged = [...((current as string[] | undefined) ?? [])];
      for (const item of value as string[]) if (!merged.includes(item)) merged.push(item);
      return merged;
    }
    case 'mapping': {
      const merged = [...((current as { identity: string; map: string }[] | undefined) ?? [])];
      for (const item of value as { identity: string; map: string }[]) {
        if (!merged.some((m) => m.identity === item.identity && m.map === item.map)) merged.push(clone(item));
      }
      return merged;
    }
    default:
      return clone(value);
  }
}
