import type { CodeSystem, CodeSystemConcept } from '@medplum/fhirtypes';

export interface FlatConcept {
  code: string;
  display?: string;
  /** Codes of the concept's ancestors, nearest first. */
  ancestors: string[];
  properties: Record<string, string>;
}

/** The concepts of a CodeSystem, flattened depth-first, each knowing its ancestors. */
export function flattenConcepts(codeSystem: CodeSystem): FlatConcept[] {
  const out: FlatConcept[] = [];
  const parentsByCode = new Map<string, string[]>();
  const walk = (concepts: CodeSystemConcept[] | undefined, ancestors: string[]) => {
    for (const concept of concepts ?? []) {
      if (!concept.code) continue;
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
          if (property.code === 'subsumedBy' || property.code === 'parent') {
            parentsByCode.set(concept.code, [...(parentsByCode.get(concept.code) ?? []), value]);
          }
        }
      }
      out.push({ code: concept.code, display: concept.display, ancestors, properties });
      walk(concept.concept, [concept.code, ...ancestors]);
    }
  };
  walk(codeSystem.concept, []);
  if (parentsByCode.size > 0) {
    // Resolve property-stated parents transitively into ancestor lists.
    const resolve = (code: string, seen: Set<string>): string[] => {
      const direct = parentsByCode.get(code) ?? [];
      const result: string[] = [];
      for (const parent of direct) {
        if (seen.has(parent)) continue;
        seen.add(parent);
        result.push(parent, ...resolve(parent, seen));
      }
      return result;
    };
    for (const concept of out) {
      const extra = resolve(concept.code, new Set([concept.code]));
      concept.ancestors = [...new Set([...concept.ancestors, ...extra])];
    }
  }
  return out;
}
