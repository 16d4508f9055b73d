import type { QuestionnaireResponse } from '@medplum/fhirtypes';

/** Changes are saved to the server this long after the last keystroke. */
export const DRAFT_SAVE_DELAY_MS = 1000;

/** Does a response answer this questionnaire (its canonical, with or without `|version`)? */
export function answersQuestionnaire(
  response: QuestionnaireResponse,
  url: string | undefined,
  id: string | undefined,
): boolean {
  const reference = response.questionnaire ?? '';
  return (!!url && reference.split('|')[0] === url) || (!!id && reference === `Questionnaire/${id}`);
}

/** The draft to resume: the newest in-progress response to this questionnaire written by me. */
export function pickDraft(
  responses: readonly QuestionnaireResponse[],
  questionnaire: { url?: string; id?: string },
  me: string | undefined,
): QuestionnaireResponse | undefined {
  return responses
    .filter((r) => r.status === 'in-progress' && answersQuestionnaire(r, questionnaire.url, questionnaire.id))
    .filter((r) => !me || !r.author?.reference || r.author.reference === me)
    .sort((a, b) => (b.meta?.lastUpdated ?? '').localeCompare(a.meta?.lastUpdated ?? ''))[0];
}
