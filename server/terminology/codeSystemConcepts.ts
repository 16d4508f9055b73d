import type { CodeSystem, CodeSystemConcept } from '@medplum/fhirtypes';

export interface FlatConcept {
  code: string;
  display?: string;
  /**
   * Codes of the concept's direct parents: the concept it is nested in first, then parents stated
   * by a `parent`/`subsumedBy` property. Only direct ones: a materialised ancestor list per concept
   * grows with the square of a deep hierarchy (a CodeSystem of 20,000 concepts, each the parent of
   * the next, made 200 million entries and stopped the server); `descendantsOf` walks it instead.
   */
  parents: string[];
  properties: Record<string, string>;
}

/** The concepts of a CodeSystem, flattened depth-first, each knowing its direct parents. */
export function flattenConcepts(codeSystem: CodeSystem): FlatConcept[] {
  const out: FlatConcept[] = [];
  // Iterative: nesting depth is whatever the stored resource holds.
  const stack: { concepts: CodeSystemConcept[]; index: number; parent?: string }[] = [
    { concepts: codeSystem.concept ?? [], index: 0 },
  ];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.index >= frame.concepts.length) {
      stack.pop();
      continue;
    }
    const concept = frame.concepts[frame.index++];
    if (!concept.code) continue;
    const parents = frame.parent === undefined ? [] : [frame.parent];
    const properties: Record<string, string> = {};
    for (const property of concept.property ?? []) {
      const value =
        property.valueCode ??
        property.valueString ??
        property.valueCoding?.code ??
        (property.valueBoolean !== undefined ? String(property.valueBoolean) : undefined);
      if (property.code && value !== undefined) {
        properties[property.code] = value;
        // Some systems (v3) state the hierarchy with a "subsumedBy" or "parent" property instead of nesting.
        if ((property.code === 'subsumedBy' || property.code === 'parent') && !parents.includes(value)) {
          parents.push(value);
        }
      }
    }
    out.push({ code: concept.code, display: concept.display, parents, properties });
    if (concept.concept?.length) stack.push({ concepts: concept.concept, index: 0, parent: concept.code });
  }
  return out;
}

/** Every code below `code` in the hierarchy (not `code` itself unless a cycle leads back to it): one walk, linear in the concepts. */
export function descendantsOf(concepts: FlatConcept[], code: string): Set<string> {
  const children = new Map<string, string[]>();
  for (const concept of concepts) {
    for (const parent of concept.parents) {
      const list = children.get(parent);
      if (list) list.push(concept.code);
      else children.set(parent, [concept.code]);
    }
  }
  const found = new Set<string>();
  const queue = [...(children.get(code) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    if (found.has(next)) continue;
    found.add(next);
    for (const child of children.get(next) ?? []) if (!found.has(child)) queue.push(child);
  }
  return found;
}
