import type { ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { primitiveTypes } from '../../data-provider/validation/primitiveRules';
import type {
  DiscriminatorType,
  ElementConstraint,
  ElementModel,
  ElementType,
  SliceModel,
  SlicingModel,
  TypeSchema,
  TypedValue,
} from './schemaTypes';
import { isReadOnlyPath } from './readOnlyElements';
import { SchemaError } from './schemaErrors';

/** Maxima at or above this are "unbounded" for every practical purpose (data-and-client-layer-spec §5). */
const LARGE_MAX = 1_000_000;

/** `*` and very large values → Infinity; absent → Infinity (the element's base decides). */
export function parseMax(max: string | undefined): number {
  if (max === undefined || max === '*') return Infinity;
  const value = Number(max);
  return Number.isFinite(value) && value < LARGE_MAX ? value : Infinity;
}

const primitiveSet = new Set(primitiveTypes);

const systemTypes: Record<string, string> = {
  'http://hl7.org/fhirpath/System.String': 'string',
  'http://hl7.org/fhirpath/System.Boolean': 'boolean',
  'http://hl7.org/fhirpath/System.Integer': 'integer',
  'http://hl7.org/fhirpath/System.Decimal': 'decimal',
  'http://hl7.org/fhirpath/System.Date': 'date',
  'http://hl7.org/fhirpath/System.DateTime': 'dateTime',
  'http://hl7.org/fhirpath/System.Time': 'time',
};

export function isPrimitiveType(code: string): boolean {
  return primitiveSet.has(code);
}

/** `valueQuantity` from stem `value` and type `Quantity`; `valueString` from `string`. */
export function choiceKey(stem: string, typeCode: string): string {
  return stem + typeCode.charAt(0).toUpperCase() + typeCode.slice(1);
}

function typeCodeOf(type: NonNullable<ElementDefinition['type']>[number], path: string): string {
  const code = type.code ?? '';
  // `id` elements carry a FHIRPath system type plus an extension naming the FHIR type.
  const fhirType = type.extension?.find(
    (e) => e.url === 'http://hl7.org/fhir/StructureDefinition/structuredefinition-fhir-type',
  );
  const named = fhirType?.valueUrl ?? fhirType?.valueUri;
  if (named) return named;
  // Without the extension (the GraphQL source does not fetch it): Extension.url is a uri.
  if (code === 'http://hl7.org/fhirpath/System.String' && (path === 'url' || path.endsWith('.url'))) return 'uri';
  return systemTypes[code] ?? code;
}

function elementTypes(element: ElementDefinition, path: string): ElementType[] {
  return (element.type ?? []).map((t) => ({
    code: typeCodeOf(t, path),
    profiles: t.profile ?? [],
    targetProfiles: t.targetProfile ?? [],
  }));
}

/** The `fixed[x]` or `pattern[x]` of an element, with the type named by its key. */
function typedValueOf(element: ElementDefinition, prefix: 'fixed' | 'pattern'): TypedValue | undefined {
  for (const [key, value] of Object.entries(element)) {
    if (!key.startsWith(prefix) || key.length === prefix.length || value === undefined || value === null) continue;
    const suffix = key.slice(prefix.length);
    const lower = suffix.charAt(0).toLowerCase() + suffix.slice(1);
    return { type: primitiveSet.has(lower) ? lower : suffix, value };
  }
  return undefined;
}

function constraintsOf(element: ElementDefinition): ElementConstraint[] {
  return (element.constraint ?? [])
    .filter((c) => c.key && c.expression)
    .map((c) => ({
      key: c.key as string,
      severity: c.severity === 'warning' ? 'warning' : 'error',
      expression: c.expression as string,
      human: c.human ?? c.key ?? '',
    }));
}

const allowedDiscriminators: ReadonlySet<string> = new Set<DiscriminatorType>(['value', 'pattern', 'type']);

function slicingOf(element: ElementDefinition, where: string): SlicingModel | undefined {
  if (!element.slicing) return undefined;
  const discriminators = (element.slicing.discriminator ?? []).map((d) => {
    if (!allowedDiscriminators.has(d.type ?? '')) {
      throw new SchemaError(`Unsupported slicing discriminator type: ${d.type} (${where})`);
    }
    return { type: d.type as DiscriminatorType, path: d.path ?? '$this' };
  });
  return {
    discriminators,
    rules: element.slicing.rules ?? 'open',
    ordered: element.slicing.ordered ?? false,
    slices: [],
  };
}

interface Entry {
  /** Id segments relative to the current root, each possibly `name:slice`. */
  segments: string[];
  element: ElementDefinition;
}

function toModel(element: ElementDefinition, path: string, rootType: string, inResource: boolean): ElementModel {
  const typeDetails = elementTypes(element, path);
  // Resource.id is an `id` (1-64 letters, digits, '-' and '.'), though R4 declares it a System.String.
  if (inResource && path === 'id' && typeDetails[0]?.code === 'string') typeDetails[0].code = 'id';
  const min = element.min ?? 0;
  const max = parseMax(element.max);
  const baseMax = element.base ? parseMax(element.base.max) : max;
  const last = path.split('.').pop() ?? path;
  const fixedValue = typedValueOf(element, 'fixed');
  const patternValue = typedValueOf(element, 'pattern');
  return {
    path,
    name: last.replace('[x]', ''),
    min,
    max,
    required: min > 0,
    isArray: baseMax > 1,
    isChoice: last.endsWith('[x]'),
    types: typeDetails.map((t) => t.code).filter(Boolean),
    typeDetails,
    contentReference: element.contentReference
      ? element.contentReference.replace(/^.*#/, '').replace(new RegExp(`^${rootType}\\.?`), '')
      : undefined,
    targetProfiles: typeDetails.flatMap((t) => t.targetProfiles),
    binding: element.binding?.strength
      ? { strength: element.binding.strength, valueSet: element.binding.valueSet }
      : undefined,
    short: element.short,
    definition: element.definition,
    isModifier: element.isModifier,
    isSummary: element.isSummary,
    fixed: fixedValue?.value,
    pattern: patternValue?.value,
    fixedValue,
    patternValue,
    readOnly: inResource && isReadOnlyPath(path),
    constraints: constraintsOf(element),
    slicing: slicingOf(element, element.id ?? path),
    children: [],
  };
}

/**
 * Builds one level (the type, or one slice) from its entries: plain elements keyed by path, slices
 * attached to their sliced element, and each slice's own children built recursively.
 */
function buildLevel(entries: Entry[], rootType: string, inResource: boolean): Map<string, ElementModel> {
  const elements = new Map<string, ElementModel>();
  const sliceEntries = new Map<string, { element?: ElementDefinition; children: Entry[]; basePath: string }>();
  const sliceOrder: string[] = [];

  for (const entry of entries) {
    const sliceAt = entry.segments.findIndex((s) => s.includes(':'));
    if (sliceAt < 0) {
      const path = entry.segments.join('.');
      if (!elements.has(path)) elements.set(path, toModel(entry.element, path, rootType, inResource));
      continue;
    }
    const [name, sliceName] = splitSlice(entry.segments[sliceAt]);
    const basePath = [...entry.segments.slice(0, sliceAt), name].join('.');
    const key = `${basePath}:${sliceName}`;
    let slice = sliceEntries.get(key);
    if (!slice) {
      slice = { children: [], basePath };
      sliceEntries.set(key, slice);
      sliceOrder.push(key);
    }
    if (sliceAt === entry.segments.length - 1) slice.element = entry.element;
    else slice.children.push({ segments: entry.segments.slice(sliceAt + 1), element: entry.element });
  }

  for (const key of sliceOrder) {
    const slice = sliceEntries.get(key) as { element?: ElementDefinition; children: Entry[]; basePath: string };
    const sliced = elements.get(slice.basePath);
    if (!slice.element || !sliced) continue;
    // A choice element re-sliced by type (`value[x]:valueQuantity`) without a slicing entry: type slicing.
    sliced.slicing ??= {
      discriminators: [{ type: 'type', path: '$this' }],
      rules: 'open',
      ordered: false,
      slices: [],
    };
    const model = toModel(slice.element, slice.basePath, rootType, false);
    const children = buildLevel(slice.children, rootType, false);
    linkChildren(children);
    const sliceModel: SliceModel = {
      name: splitSlice(key.slice(slice.basePath.length))[1],
      short: model.short,
      min: model.min,
      max: model.max,
      types: model.typeDetails,
      fixed: model.fixedValue,
      pattern: model.patternValue,
      elements: children,
    };
    sliced.slicing.slices.push(sliceModel);
  }
  return elements;
}

function splitSlice(segment: string): [string, string] {
  const at = segment.indexOf(':');
  return at < 0 ? [segment, ''] : [segment.slice(0, at), segment.slice(at + 1)];
}

/** Fills `children` of each element from the flat map (direct children only, in definition order). */
function linkChildren(elements: Map<string, ElementModel>): ElementModel[] {
  const topLevel: ElementModel[] = [];
  for (const element of elements.values()) {
    const dot = element.path.lastIndexOf('.');
    if (dot < 0) {
      topLevel.push(element);
      continue;
    }
    elements.get(element.path.slice(0, dot))?.children.push(element);
  }
  return topLevel;
}

/**
 * A StructureDefinition's snapshot as the engine's model. Throws a SchemaError with a clear message
 * for a definition the engine cannot use (app-spec §8, data-and-client-layer-spec §5).
 */
export function buildTypeSchema(definition: StructureDefinition): TypeSchema {
  if (!definition.type) throw new SchemaError('StructureDefinition type missing');
  if (!definition.name)
    throw new SchemaError(`StructureDefinition name missing (${definition.url ?? definition.type})`);
  const snapshot = definition.snapshot?.element ?? [];
  if (snapshot.length === 0) {
    throw new SchemaError(`StructureDefinition snapshot missing or empty (${definition.url ?? definition.name})`);
  }
  const rootType = definition.type;
  const inResource = definition.kind === 'resource';
  const rootElement = snapshot[0];
  const entries: Entry[] = [];
  for (const element of snapshot.slice(1)) {
    const id = element.id ?? element.path ?? '';
    const segments = id.split('.');
    // Ids start with the type name (`Patient.name`); a profile on a type keeps it too.
    if (segments.length < 2) continue;
    entries.push({ segments: segments.slice(1), element });
  }
  const elements = buildLevel(entries, rootType, inResource);
  const topLevel = linkChildren(elements);
  return {
    type: rootType,
    name: definition.name,
    title: definition.title,
    url: definition.url,
    kind: definition.kind ?? 'resource',
    profileUrl: definition.derivation === 'constraint' ? definition.url : undefined,
    constraints: constraintsOf(rootElement),
    elements,
    topLevel,
  };
}
