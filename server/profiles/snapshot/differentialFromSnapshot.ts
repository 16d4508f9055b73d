import type { ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { unslicedId, type DefinitionResolver } from './generateSnapshot';

const CORE = 'http://hl7.org/fhir/StructureDefinition/';

/** Properties left out of a derived differential (and of snapshot comparisons): documentation only. */
export const DOCUMENTATION_ONLY = ['mapping', 'alias'] as const;

type Element = ElementDefinition & Record<string, unknown>;

/**
 * The differential a published snapshot implies: each element that is a slice or whose properties
 * differ from what it inherits (the base definition's element of the same id without slice
 * names, or its datatype's element), with only the differing properties. The published US Core
 * definitions this project ships carry snapshots only: their differentials are rebuilt this way
 * to check the snapshot generator (generateSnapshot.test.ts). Mappings and aliases, which those
 * copies leave out, are not compared.
 */
export async function differentialFromSnapshot(
  profile: StructureDefinition,
  resolve: DefinitionResolver,
): Promise<ElementDefinition[]> {
  const base = await resolve(profile.baseDefinition as string);
  const baseElements = base?.snapshot?.element ?? [];
  const differential: ElementDefinition[] = [];
  for (const element of profile.snapshot?.element ?? []) {
    const id = element.id as string;
    const inherited = (await inheritedElement(unslicedId(id), baseElements, resolve)) as Element | undefined;
    const own = element as Element;
    const keys = new Set([...Object.keys(own), ...Object.keys(inherited ?? {})]);
    const changed = [...keys].filter(
      (key) =>
        !['id', 'path', 'base', ...DOCUMENTATION_ONLY].includes(key) &&
        own[key] !== undefined &&
        JSON.stringify(own[key]) !== JSON.stringify(inherited?.[key]),
    );
    if (changed.length === 0 && !element.sliceName) continue;
    differential.push({
      id,
      path: element.path,
      ...Object.fromEntries(changed.map((key) => [key, structuredClone(own[key])])),
    } as ElementDefinition);
  }
  return differential;
}

async function inheritedElement(
  id: string,
  elements: readonly ElementDefinition[],
  resolve: DefinitionResolver,
): Promise<ElementDefinition | undefined> {
  const found = elements.find((element) => element.id === id);
  if (found) return found;
  const parts = id.split('.');
  for (let length = parts.length - 1; length > 0; length--) {
    const ancestor = elements.find((element) => element.id === parts.slice(0, length).join('.'));
    if (!ancestor) continue;
    const code = ancestor.type?.[0]?.code;
    if (!code) return undefined;
    const type = await resolve(CORE + code);
    const typeElements = type?.snapshot?.element ?? [];
    const root = typeElements[0]?.path ?? code;
    return inheritedElement([root, ...parts.slice(length)].join('.'), typeElements, resolve);
  }
  return undefined;
}
