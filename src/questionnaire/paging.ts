import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
} from '@medplum/fhirtypes';
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

function holdsAnswer(item: QuestionnaireResponseItem): boolean {
  return (item.answer?.length ?? 0) > 0 || (item.item ?? []).some(holdsAnswer);
}

/**
 * The page a saved or recovered response continues on: the last page it holds an answer on, i.e.
 * how far its author got (0 when it holds none). A long form resumed on its first page would send
 * them paging through everything they already did.
 */
export function resumePage(questionnaire: Questionnaire, response: QuestionnaireResponse | undefined): number {
  const answered = new Set((response?.item ?? []).filter(holdsAnswer).map((item) => item.linkId));
  const all = pages(questionnaire);
  for (let index = all.length - 1; index > 0; index--) {
    if (answered.has(all[index].linkId)) return index;
  }
  return 0;
}

/** The page an item's occurrence path lies on (-1 when none does). */
export function pageOfPath(questionnaire: Questionnaire, path: string): number {
  return pages(questionnaire).findIndex((item) => path === pagePath(item) || path.startsWith(`${pagePath(item)}/`));
}
