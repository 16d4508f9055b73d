import type { Questionnaire } from '@medplum/fhirtypes';
import { enableWhenHolds } from './answerComparison';
import { childPath, occurrences, type AnswerValue, type FormState, type ItemOccurrence } from './formState';
import { indexItems, type IndexedItem } from './itemIndex';
import { expressionOf, EXT } from './questionnaireExtensions';

/**
 * The paths where the answers to `linkId` live, seen from `contextPath`: within the same
 * occurrence of a shared repeating group, else every occurrence.
 */
export function answerPathsFor(indexed: IndexedItem, contextPath: string, state: FormState): string[] {
  const contextSegments = contextPath.split('/');
  let prefixes = [''];
  indexed.ancestors.forEach((ancestor, depth) => {
    const segment = contextSegments[depth];
    const next: string[] = [];
    for (const prefix of prefixes) {
      if (ancestor.type !== 'group') {
        next.push(childPath(prefix, ancestor.linkId));
        continue;
      }
      const shared = segment?.startsWith(`${ancestor.linkId}[`) ? segment : undefined;
      if (shared) {
        next.push(childPath(prefix, shared));
      } else {
        const key = childPath(prefix, ancestor.linkId);
        const count = ancestor.repeats ? Math.max(1, state.groups[key] ?? 1) : 1;
        for (let i = 0; i < count; i++) next.push(`${key}[${i}]`);
      }
    }
    prefixes = next;
  });
  return prefixes.map((prefix) => childPath(prefix, indexed.item.linkId));
}

export interface Enablement {
  /** Occurrence path → shown and answered (false: hidden, left out of the response). */
  enabled: Map<string, boolean>;
  occurrences: ItemOccurrence[];
}

/**
 * Which items are enabled: a parent's being disabled disables its children; `enableWhen`
 * conditions combine by `enableBehavior` (any by default); an `enableWhenExpression` decides by its
 * evaluated result (`expressionResults`, absent until evaluated = disabled). Answers of disabled
 * questions do not count, as FHIR requires.
 */
export function computeEnablement(
  questionnaire: Questionnaire,
  state: FormState,
  expressionResults: Record<string, boolean> = {},
): Enablement {
  const index = indexItems(questionnaire);
  const all = occurrences(questionnaire, state);
  const byPath = new Map(all.map((occurrence) => [occurrence.path, occurrence]));
  const enabled = new Map<string, boolean>();
  const visiting = new Set<string>();

  const answersOf = (linkId: string, contextPath: string): AnswerValue[] => {
    const indexed = index.get(linkId);
    if (!indexed) return [];
    return answerPathsFor(indexed, contextPath, state)
      .filter((path) => isEnabled(path))
      .flatMap((path) => state.answers[path] ?? []);
  };

  const own = (occurrence: ItemOccurrence): boolean => {
    const item = occurrence.item;
    if (expressionOf(item, EXT.enableWhenExpression)) return expressionResults[occurrence.path] === true;
    const conditions = item.enableWhen ?? [];
    if (conditions.length === 0) return true;
    const results = conditions.map((condition) =>
      enableWhenHolds(condition, answersOf(condition.question, occurrence.path)),
    );
    return item.enableBehavior === 'all' ? results.every(Boolean) : results.some(Boolean);
  };

  function isEnabled(path: string): boolean {
    const known = enabled.get(path);
    if (known !== undefined) return known;
    const occurrence = byPath.get(path);
    if (!occurrence) return false;
    // A condition that (through others) depends on itself cannot be decided: treat it as met.
    if (visiting.has(path)) return true;
    visiting.add(path);
    const parentOk = occurrence.parentPath === '' || isEnabled(occurrence.parentPath);
    const result = parentOk && own(occurrence);
    visiting.delete(path);
    enabled.set(path, result);
    return result;
  }

  for (const occurrence of all) isEnabled(occurrence.path);
  return { enabled, occurrences: all };
}
