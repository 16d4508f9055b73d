import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';

export interface IndexedItem {
  item: QuestionnaireItem;
  /** Ancestors from the root, nearest last. */
  ancestors: QuestionnaireItem[];
}

/** Every item of a questionnaire by linkId, with its ancestors (linkIds are unique in a valid questionnaire). */
export function indexItems(questionnaire: Questionnaire): Map<string, IndexedItem> {
  const index = new Map<string, IndexedItem>();
  const walk = (items: QuestionnaireItem[] | undefined, ancestors: QuestionnaireItem[]) => {
    for (const item of items ?? []) {
      if (!index.has(item.linkId)) index.set(item.linkId, { item, ancestors });
      walk(item.item, [...ancestors, item]);
    }
  };
  walk(questionnaire.item, []);
  return index;
}
