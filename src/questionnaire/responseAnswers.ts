import type {
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import { formatCoding, formatDate, formatDateTime, formatQuantity } from '../../data-provider/formatting';

export interface AnsweredQuestion {
  linkId: string;
  question: string;
  answer: string;
}

/** An answer as text: whichever value[x] it carries. */
export function answerText(answer: QuestionnaireResponseItemAnswer): string {
  if (answer.valueBoolean !== undefined) return answer.valueBoolean ? 'Yes' : 'No';
  if (answer.valueCoding) return formatCoding(answer.valueCoding) || '';
  if (answer.valueQuantity) return formatQuantity(answer.valueQuantity);
  if (answer.valueDate) return formatDate(answer.valueDate);
  if (answer.valueDateTime) return formatDateTime(answer.valueDateTime);
  if (answer.valueReference) return answer.valueReference.display ?? answer.valueReference.reference ?? '';
  if (answer.valueAttachment) return answer.valueAttachment.title ?? answer.valueAttachment.url ?? 'Attachment';
  const primitive =
    answer.valueString ?? answer.valueTime ?? answer.valueUri ?? answer.valueDecimal ?? answer.valueInteger;
  return primitive === undefined ? '' : String(primitive);
}

/** The answered questions of a response in document order, nested groups flattened. */
export function answeredQuestions(response: QuestionnaireResponse): AnsweredQuestion[] {
  const walk = (items: QuestionnaireResponseItem[] | undefined): AnsweredQuestion[] =>
    (items ?? []).flatMap((item) => [
      ...(item.answer?.length
        ? [
            {
              linkId: item.linkId,
              question: item.text ?? item.linkId,
              answer: item.answer.map(answerText).filter(Boolean).join(', '),
            },
          ]
        : []),
      ...walk(item.item),
      ...(item.answer ?? []).flatMap((answer) => walk(answer.item)),
    ]);
  return walk(response.item);
}
