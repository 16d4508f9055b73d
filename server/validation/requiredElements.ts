import type { StructureDefinition } from '@medplum/fhirtypes';
import { readDefinitionBundle } from '../definitions/definitionFiles';

let required: Map<string, string[]> | undefined;

/** The files the required elements come from. */
export const requiredElementFiles = ['profiles-types.json', 'profiles-resources.json', 'profiles-medplum.json'];

/** Required (min ≥ 1) child elements per JSON-schema definition name, computed from base StructureDefinitions. */
export function computeRequiredChildren(definitions: readonly StructureDefinition[]): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const sd of definitions) {
    if (sd.resourceType !== 'StructureDefinition' || sd.derivation === 'constraint') continue;
    for (const element of sd.snapshot?.element ?? []) {
      const path = element.path ?? '';
      const segments = path.split('.');
      if (segments.length < 2 || (element.min ?? 0) < 1) continue;
      const parent = definitionNameOf(segments.slice(0, -1));
      (result[parent] ??= []).push(segments[segments.length - 1]);
    }
  }
  return result;
}

/** Uses an index computed earlier (kept in the database by definitionIndex.ts) instead of the files. */
export function useRequiredChildren(index: Record<string, string[]>): void {
  required = new Map(Object.entries(index));
}

/**
 * Required (min ≥ 1) child elements per JSON-schema definition name, from the base
 * StructureDefinitions. The JSON schema cannot require primitives (a value may come as `status`
 * or only as `_status`), so this list fills that gap.
 */
export function requiredChildren(definitionName: string): string[] {
  if (!required) {
    const definitions = requiredElementFiles.flatMap((file) => readDefinitionBundle(file)) as StructureDefinition[];
    useRequiredChildren(computeRequiredChildren(definitions));
  }
  return required?.get(definitionName) ?? [];
}

/** `Observation.component` → `Observation_Component`, the FHIR JSON schema's naming. */
function definitionNameOf(segments: string[]): string {
  return segments
    .map((segment, index) => (index === 0 ? segment : segment[0].toUpperCase() + segment.slice(1)))
    .join('_');
}

/** Whether `object` carries the element `name` (a value, its `_name` extension, or a choice variant). */
export function hasElement(object: Record<string, unknown>, name: string): boolean {
  if (name.endsWith('[x]')) {
    const base = name.slice(0, -3);
    return Object.keys(object).some((key) => key.startsWith(base) && /^[A-Z]/.test(key.slice(base.length)));
  }
  const present = (value: unknown) =>
    value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
  return present(object[name]) || present(object[`_${name}`]);
}
