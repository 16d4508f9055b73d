import type { Resource, StructureDefinition } from '@medplum/fhirtypes';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import type { SummaryMode } from './searchRequest';

const subsetted = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED' };
const alwaysKept = new Set(['resourceType', 'id', 'meta']);

interface ElementFlags {
  summary: Set<string>;
  mandatory: Set<string>;
}

let flags: Map<string, ElementFlags> | undefined;

/** Per resource type: its top-level isSummary elements and those with min ≥ 1 (as stored in an index). */
export type ElementFlagIndex = Record<string, { summary: string[]; mandatory: string[] }>;

/** The files the element flags come from. */
export const elementFlagFiles = ['profiles-resources.json', 'profiles-medplum.json'];

export function computeElementFlags(definitions: readonly StructureDefinition[]): ElementFlagIndex {
  const result: ElementFlagIndex = {};
  for (const sd of definitions) {
    if (
      sd.resourceType !== 'StructureDefinition' ||
      sd.kind !== 'resource' ||
      sd.derivation === 'constraint' ||
      !sd.type
    )
      continue;
    const entry = { summary: [] as string[], mandatory: [] as string[] };
    for (const element of sd.snapshot?.element ?? []) {
      const segments = (element.path ?? '').split('.');
      if (segments.length !== 2) continue;
      const name = segments[1].replace('[x]', '');
      if (element.isSummary) entry.summary.push(name);
      if ((element.min ?? 0) > 0) entry.mandatory.push(name);
    }
    result[sd.type] = entry;
  }
  return result;
}

/** Uses an index computed earlier (kept in the database by definitionIndex.ts) instead of the files. */
export function useElementFlags(index: ElementFlagIndex): void {
  flags = new Map(
    Object.entries(index).map(([type, entry]) => [
      type,
      { summary: new Set(entry.summary), mandatory: new Set(entry.mandatory) },
    ]),
  );
}

/** Top-level elements marked isSummary, and those with min ≥ 1, per resource type. */
function elementFlags(resourceType: string): ElementFlags {
  if (!flags) {
    const definitions = elementFlagFiles.flatMap((f) => readDefinitionBundle(f)) as StructureDefinition[];
    useElementFlags(computeElementFlags(definitions));
  }
  return flags?.get(resourceType) ?? { summary: new Set(), mandatory: new Set() };
}

function keep(resource: Resource, wanted: (name: string) => boolean): Resource {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const name = key.startsWith('_') ? key.slice(1) : key;
    // Choice elements: valueQuantity belongs to value[x].
    const base = name.replace(/[A-Z].*$/, '');
    if (alwaysKept.has(key) || wanted(name) || wanted(base)) out[key] = value;
  }
  const meta = { ...(resource.meta ?? {}) };
  meta.tag = [...(meta.tag ?? []).filter((t) => t.code !== subsetted.code), subsetted];
  out.meta = meta;
  return out as unknown as Resource;
}

/** Applies `_summary` (true, text, data) to one resource; `count` and `false` leave it whole. */
export function applySummary(resource: Resource, mode: SummaryMode): Resource {
  const { summary, mandatory } = elementFlags(resource.resourceType);
  switch (mode) {
    case 'true':
      return keep(resource, (name) => summary.has(name));
    case 'text':
      return keep(resource, (name) => name === 'text' || mandatory.has(name));
    case 'data':
      return keep(resource, (name) => name !== 'text');
    default:
      return resource;
  }
}

/** Applies `_elements` (top-level element names) to one resource. */
export function applyElements(resource: Resource, elements: readonly string[]): Resource {
  const wanted = new Set(elements.map((e) => e.replace(/^[A-Z][A-Za-z]+\./, '')));
  return keep(resource, (name) => wanted.has(name));
}
