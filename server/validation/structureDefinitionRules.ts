import type { OperationOutcomeIssue } from '@medplum/fhirtypes';

/**
 * What every element of a StructureDefinition (differential and snapshot) must satisfy beyond its
 * structure, whatever its base: a max that is a number or `*` (ElementDefinition eld-3) and a min no
 * more than its max (eld-2). An element that broke them could never be filled: a profile with
 * `Patient.gender` 2..1 made every Patient "require at least 2 values". The rules that need the
 * base (a profile may only constrain its base's cardinality) are checked when the snapshot is
 * generated (profiles/snapshot/generateSnapshot.ts).
 */
export function validateStructureDefinitionElements(definition: Record<string, unknown>): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  for (const part of ['differential', 'snapshot'] as const) {
    const elements = (definition[part] as { element?: unknown } | undefined)?.element;
    // The structure check reports an element list of the wrong shape.
    if (!Array.isArray(elements)) continue;
    elements.forEach((element: unknown, index) => {
      if (typeof element !== 'object' || element === null) return;
      const { id, path, min, max } = element as { id?: unknown; path?: unknown; min?: unknown; max?: unknown };
      const expression = `StructureDefinition.${part}.element[${index}]`;
      const name = typeof id === 'string' ? id : typeof path === 'string' ? path : 'The element';
      if (typeof max === 'string' && max !== '*' && !/^[0-9]+$/.test(max)) {
        issues.push(problem(`${name}: max "${max}" is neither a number nor "*" (eld-3)`, `${expression}.max`));
      } else if (typeof max === 'string' && max !== '*' && typeof min === 'number' && min > Number(max)) {
        issues.push(problem(`${name}: min ${min} is more than max ${max} (eld-2: min <= max)`, expression));
      }
    });
  }
  return issues;
}

function problem(text: string, expression: string): OperationOutcomeIssue {
  return { severity: 'error', code: 'invariant', details: { text }, expression: [expression] };
}
