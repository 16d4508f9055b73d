import type { Questionnaire, QuestionnaireItem, QuestionnaireResponse } from '@medplum/fhirtypes';
import { EXT, answeredQuestions, expressionOf, type AnsweredQuestion } from '../../src/questionnaire/model';

function calculatedLinkIds(items: QuestionnaireItem[] | undefined): string[] {
  return (items ?? []).flatMap((item) => [
    ...(expressionOf(item, EXT.calculatedExpression) ? [item.linkId] : []),
    ...calculatedLinkIds(item.item),
  ]);
}

/**
 * The answers a questionnaire works out itself rather than asks for — a total score and what it
 * means, like the PHQ-9's total (an integer item with a calculatedExpression) and its severity.
 * A response does not say which of its answers were calculated; its questionnaire does.
 */
export function calculatedAnswers(
  questionnaire: Questionnaire | undefined,
  response: QuestionnaireResponse,
): AnsweredQuestion[] {
  const calculated = new Set(calculatedLinkIds(questionnaire?.item));
  if (calculated.size === 0) return [];
  return answeredQuestions(response).filter((answer) => calculated.has(answer.linkId));
}
