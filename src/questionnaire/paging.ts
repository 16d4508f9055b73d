import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { itemControl } from './questionnaireExtensions';

/** A form is paged when a top-level group carries the `page` item control (SDC); each top-level item is then a page. */
export function isPaged(questionnaire: Questionnaire): boolean {
  return (questionnaire.item ?? []).some((item) => item.type === 'group' && itemControl(item) === 'page');
}

export function pages(questionnaire: Questionnaire): QuestionnaireItem[] {
  return questionnaire.item ?? [];
}

/** The occurrence path of a top-level page item (groups carry their occurrence index). */
export function pagePath(item: QuestionnaireItem): string {
  return item.type === 'group' ? `${item.linkId}[0]` : item.linkId;
}

/** The nearest enabled page before or after `from` (-1 when there is none). */
export function nextPage(
  questionnaire: Questionnaire,
  enabled: ReadonlyMap<string, boolean>,
  from: number,
  direction: 1 | -1,
): number {
  const all = pages(questionnaire);
  for (let index = from + direction; index >= 0 && index < all.length; index += direction) {
    if (enabled.get(pagePath(all[index])) !== false) return index;
  }
  return -1;
}
