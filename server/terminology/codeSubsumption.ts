import type { FlatConcept } from './codeSystemConcepts';

/** CodeSystem/$subsumes's answer: how code A relates to code B (FHIR R4 concept-subsumption-outcome). */
export type SubsumptionOutcome = 'equivalent' | 'subsumes' | 'subsumed-by' | 'not-subsumed';

/** Each code's direct parents; a code stated twice (nested and by property) keeps every parent. */
function parentIndex(concepts: readonly FlatConcept[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const concept of concepts) {
    const known = index.get(concept.code);
    if (known) known.push(...concept.parents);
    else index.set(concept.code, [...concept.parents]);
  }
  return index;
}

/**
 * Whether `ancestor` is above `code`: a walk up the direct parents that visits each concept once,
 * so a stored hierarchy with diamonds or cycles costs at most one pass over its concepts.
 */
function isAbove(parentsOf: Map<string, string[]>, ancestor: string, code: string): boolean {
  const seen = new Set<string>([code]);
  const queue = [...(parentsOf.get(code) ?? [])];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    if (next === ancestor) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const parent of parentsOf.get(next) ?? []) if (!seen.has(parent)) queue.push(parent);
  }
  return false;
}

/**
 * How `codeA` relates to `codeB` in an is-a hierarchy. Two codes each above the other (a cycle the
 * CodeSystem states) mean the same set of things, so they are equivalent.
 */
export function subsumption(concepts: readonly FlatConcept[], codeA: string, codeB: string): SubsumptionOutcome {
  if (codeA === codeB) return 'equivalent';
  const parentsOf = parentIndex(concepts);
  const aAboveB = isAbove(parentsOf, codeA, codeB);
  const bAboveA = isAbove(parentsOf, codeB, codeA);
  if (aAboveB && bAboveA) return 'equivalent';
  if (aAboveB) return 'subsumes';
  if (bAboveA) return 'subsumed-by';
  return 'not-subsumed';
}
