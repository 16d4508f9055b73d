import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
} from '@medplum/fhirtypes';
import { childPath, occurrences, type AnswerValue, type FormState } from './formState';

const VALUE_KEYS = [
  'valueBoolean',
  'valueDecimal',
  'valueInteger',
  'valueDate',
  'valueDateTime',
  'valueTime',
  'valueString',
  'valueUri',
  'valueAttachment',
  'valueCoding',
  'valueQuantity',
  'valueReference',
] as const;

/** The value[x] of an answer, initial value or option, as an answer (other keys dropped). */
export function answerValueOf(source: object): AnswerValue | undefined {
  for (const key of VALUE_KEYS) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) return { [key]: value } as AnswerValue;
  }
  return undefined;
}

function initialAnswers(item: QuestionnaireItem): AnswerValue[] {
  const initial = (item.initial ?? []).map(answerValueOf).filter((a): a is AnswerValue => !!a);
  if (initial.length) return item.repeats ? initial : initial.slice(0, 1);
  const selected = (item.answerOption ?? [])
    .filter((option) => option.initialSelected)
    .map(answerValueOf)
    .filter((a): a is AnswerValue => !!a);
  return item.repeats ? selected : selected.slice(0, 1);
}

/** A fresh form: the questionnaire's `initial` values and `initialSelected` options. */
export function initialFormState(questionnaire: Questionnaire): FormState {
  const state: FormState = { answers: {}, groups: {} };
  for (const occurrence of occurrences(questionnaire, state)) {
    if (occurrence.item.type === 'group' || occurrence.item.type === 'display') continue;
    const answers = initialAnswers(occurrence.item);
    if (answers.length) state.answers[occurrence.path] = answers;
  }
  return state;
}

/**
 * The form state a saved response describes (a draft being resumed, a response being amended).
 * Items the questionnaire does not define are left out (they cannot be shown or edited).
 */
export function formStateFromResponse(questionnaire: Questionnaire, response: QuestionnaireResponse): FormState {
  const state: FormState = { answers: {}, groups: {} };
  const walk = (
    definitions: QuestionnaireItem[] | undefined,
    items: QuestionnaireResponseItem[] | undefined,
    parent: string,
  ) => {
    for (const definition of definitions ?? []) {
      const matching = (items ?? []).filter((item) => item.linkId === definition.linkId);
      if (definition.type === 'group') {
        const key = childPath(parent, definition.linkId);
        const used = definition.repeats ? matching : matching.slice(0, 1);
        if (definition.repeats && used.length > 1) state.groups[key] = used.length;
        used.forEach((item, index) => walk(definition.item, item.item, `${key}[${index}]`));
      } else if (matching.length) {
        const path = childPath(parent, definition.linkId);
        const answers = matching.flatMap((item) => item.answer ?? []);
        const values = answers.map(answerValueOf).filter((a): a is AnswerValue => !!a);
        if (values.length) state.answers[path] = definition.repeats ? values : values.slice(0, 1);
        // Children of a question sit under its answers (or, loosely, beside them).
        walk(
          definition.item,
          [...answers.flatMap((a) => a.item ?? []), ...matching.flatMap((i) => i.item ?? [])],
          path,
        );
      }
    }
  };
  walk(questionnaire.item, response.item, '');
  return state;
}
