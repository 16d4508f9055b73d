import type { Questionnaire, QuestionnaireItem, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';

/** One answer value (value[x] only; nested items live in the form state under their own paths). */
export type AnswerValue = Omit<QuestionnaireResponseItemAnswer, 'item' | 'id' | 'extension' | 'modifierExtension'>;

/**
 * Everything a person has entered, keyed by path. A path names one occurrence of an item:
 * group occurrences carry their index (`vitals[1]/weight`), questions do not (their answers are
 * the array). `groups` holds how many occurrences a repeating group has (default 1), keyed by
 * the group's path without the index (`vitals`).
 */
export interface FormState {
  answers: Record<string, AnswerValue[]>;
  groups: Record<string, number>;
}

export const emptyFormState: FormState = { answers: {}, groups: {} };

export function childPath(parent: string, segment: string): string {
  return parent ? `${parent}/${segment}` : segment;
}

/** The paths of a group's occurrences under `parent`. */
export function groupInstancePaths(state: FormState, parent: string, item: QuestionnaireItem): string[] {
  const key = childPath(parent, item.linkId);
  const count = item.repeats ? Math.max(1, state.groups[key] ?? 1) : 1;
  return Array.from({ length: count }, (_, index) => `${key}[${index}]`);
}

export interface ItemOccurrence {
  item: QuestionnaireItem;
  /** The question's path, or the group occurrence's path (`g[0]`). */
  path: string;
  parentPath: string;
  depth: number;
}

/** Every occurrence of every item, in document order (questions' children follow their question). */
export function occurrences(questionnaire: Questionnaire, state: FormState): ItemOccurrence[] {
  const result: ItemOccurrence[] = [];
  const walk = (items: QuestionnaireItem[] | undefined, parent: string, depth: number) => {
    for (const item of items ?? []) {
      if (item.type === 'group') {
        for (const path of groupInstancePaths(state, parent, item)) {
          result.push({ item, path, parentPath: parent, depth });
          walk(item.item, path, depth + 1);
        }
      } else {
        const path = childPath(parent, item.linkId);
        result.push({ item, path, parentPath: parent, depth });
        walk(item.item, path, depth + 1);
      }
    }
  };
  walk(questionnaire.item, '', 0);
  return result;
}

export function setAnswers(state: FormState, path: string, answers: AnswerValue[]): FormState {
  const next = { ...state.answers };
  if (answers.length === 0) delete next[path];
  else next[path] = answers;
  return { ...state, answers: next };
}

export function addGroupOccurrence(state: FormState, parent: string, item: QuestionnaireItem): FormState {
  const key = childPath(parent, item.linkId);
  return { ...state, groups: { ...state.groups, [key]: Math.max(1, state.groups[key] ?? 1) + 1 } };
}

/** Removes occurrence `index` of a repeating group, moving the later occurrences' answers up. */
export function removeGroupOccurrence(
  state: FormState,
  parent: string,
  item: QuestionnaireItem,
  index: number,
): FormState {
  const key = childPath(parent, item.linkId);
  const count = Math.max(1, state.groups[key] ?? 1);
  if (count <= 1) {
    // The last occurrence stays, emptied.
    const prefix = `${key}[0]/`;
    return {
      ...state,
      answers: Object.fromEntries(Object.entries(state.answers).filter(([path]) => !path.startsWith(prefix))),
    };
  }
  const answers: Record<string, AnswerValue[]> = {};
  const groups: Record<string, number> = {};
  const shift = (path: string): string | undefined => {
    if (!path.startsWith(`${key}[`)) return path;
    const match = /^\[(\d+)\](.*)$/.exec(path.slice(key.length));
    if (!match) return path;
    const position = Number(match[1]);
    if (position === index) return undefined;
    return `${key}[${position > index ? position - 1 : position}]${match[2]}`;
  };
  for (const [path, value] of Object.entries(state.answers)) {
    const moved = shift(path);
    if (moved !== undefined) answers[moved] = value;
  }
  for (const [path, value] of Object.entries(state.groups)) {
    const moved = path === key ? path : shift(path);
    if (moved !== undefined) groups[moved] = value;
  }
  groups[key] = count - 1;
  return { answers, groups };
}
