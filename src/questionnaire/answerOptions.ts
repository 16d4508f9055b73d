import type { Coding, QuestionnaireItem, QuestionnaireItemAnswerOption, ValueSet } from '@medplum/fhirtypes';
import { answerValueOf } from './initialState';
import type { AnswerValue } from './formState';

/** A string that is equal for two answers that are the same choice (codes by system and code). */
export function answerComparisonKey(answer: AnswerValue | undefined): string {
  if (!answer) return '';
  if (answer.valueCoding) return `coding:${answer.valueCoding.system ?? ''}|${answer.valueCoding.code ?? ''}`;
  if (answer.valueReference) return `reference:${answer.valueReference.reference ?? ''}`;
  const [key, value] = Object.entries(answer)[0] ?? ['', ''];
  return `${key}:${JSON.stringify(value)}`;
}

/** How an option or answer reads. */
export function answerLabel(answer: AnswerValue | undefined): string {
  if (!answer) return '';
  if (answer.valueCoding) return answer.valueCoding.display ?? answer.valueCoding.code ?? '';
  if (answer.valueReference) return answer.valueReference.display ?? answer.valueReference.reference ?? '';
  const value = Object.values(answer)[0];
  return value === undefined ? '' : String(value);
}

/** The options of a choice item: its answerOption, or the codes of a contained ValueSet (`#id`). */
export function localOptions(
  item: QuestionnaireItem,
  contained: readonly { resourceType: string; id?: string }[] = [],
): AnswerValue[] | undefined {
  if (item.answerOption?.length) {
    return item.answerOption
      .map((option: QuestionnaireItemAnswerOption) => answerValueOf(option))
      .filter((a): a is AnswerValue => !!a);
  }
  if (item.answerValueSet?.startsWith('#')) {
    const valueSet = contained.find((r) => r.resourceType === 'ValueSet' && r.id === item.answerValueSet?.slice(1)) as
      ValueSet | undefined;
    const codes: Coding[] = [
      ...(valueSet?.expansion?.contains ?? []).map((c) => ({ system: c.system, code: c.code, display: c.display })),
      ...(valueSet?.compose?.include ?? []).flatMap((include) =>
        (include.concept ?? []).map((c) => ({ system: include.system, code: c.code, display: c.display })),
      ),
    ];
    return codes.map((coding) => ({ valueCoding: coding }));
  }
  return undefined;
}

/** A choice item whose options come from the server's `$expand` of a ValueSet. */
export function remoteValueSet(item: QuestionnaireItem): string | undefined {
  return item.answerValueSet && !item.answerValueSet.startsWith('#') ? item.answerValueSet : undefined;
}
