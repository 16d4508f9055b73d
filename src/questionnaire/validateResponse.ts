import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
} from '@medplum/fhirtypes';
import { answerComparisonKey } from './answerOptions';
import { answerValueOf, formStateFromResponse } from './initialState';
import { computeEnablement } from './enablement';
import { itemErrors } from './itemValidation';
import { childPath } from './formState';

export interface ResponseIssue {
  /** FHIRPath-style location in the response, e.g. `QuestionnaireResponse.item[1].item[0].answer[0]`. */
  expression: string;
  message: string;
}

/** The value[x] each item type accepts (open-choice also takes free text). */
const ACCEPTED: Record<string, string[]> = {
  boolean: ['valueBoolean'],
  decimal: ['valueDecimal'],
  integer: ['valueInteger'],
  date: ['valueDate'],
  dateTime: ['valueDateTime'],
  time: ['valueTime'],
  string: ['valueString'],
  text: ['valueString'],
  url: ['valueUri'],
  choice: ['valueCoding', 'valueString', 'valueInteger', 'valueDate', 'valueTime', 'valueReference'],
  'open-choice': ['valueCoding', 'valueString', 'valueInteger', 'valueDate', 'valueTime', 'valueReference'],
  attachment: ['valueAttachment'],
  reference: ['valueReference'],
  quantity: ['valueQuantity'],
};

function valueKey(answer: object): string | undefined {
  return Object.keys(answer).find((key) => key.startsWith('value'));
}

/**
 * Checks a response against its questionnaire, as an SDC form filler must guarantee: every item
 * is defined there, at the right level, with answers of its type, one unless it repeats, choices
 * among the options, no answers where the item is disabled, and (for a completed response) every
 * enabled required item answered. Pure, so the browser and tests share it.
 */
export function validateResponse(questionnaire: Questionnaire, response: QuestionnaireResponse): ResponseIssue[] {
  const issues: ResponseIssue[] = [];
  const locationOf = new Map<string, string>();

  const walk = (
    definitions: QuestionnaireItem[] | undefined,
    items: QuestionnaireResponseItem[] | undefined,
    parentPath: string,
    parentExpression: string,
  ) => {
    const seen = new Map<string, number>();
    (items ?? []).forEach((item, index) => {
      const expression = `${parentExpression}.item[${index}]`;
      const definition = (definitions ?? []).find((d) => d.linkId === item.linkId);
      if (!definition) {
        issues.push({ expression, message: `Item "${item.linkId}" is not defined here in the questionnaire` });
        return;
      }
      const occurrence = seen.get(item.linkId) ?? 0;
      seen.set(item.linkId, occurrence + 1);
      if (occurrence > 0 && !(definition.type === 'group' && definition.repeats)) {
        issues.push({ expression, message: `Item "${item.linkId}" appears more than once` });
      }
      if (definition.type === 'group' || definition.type === 'display') {
        if (item.answer?.length) {
          issues.push({ expression, message: `Item "${item.linkId}" is a ${definition.type} and cannot have answers` });
        }
        const path = definition.type === 'group' ? `${childPath(parentPath, item.linkId)}[${occurrence}]` : parentPath;
        locationOf.set(path, expression);
        walk(definition.item, item.item, path, expression);
        return;
      }
      const path = childPath(parentPath, item.linkId);
      locationOf.set(path, expression);
      const answers = item.answer ?? [];
      if (answers.length > 1 && !definition.repeats) {
        issues.push({ expression, message: `Item "${item.linkId}" does not repeat but has ${answers.length} answers` });
      }
      answers.forEach((answer, answerIndex) => {
        const answerExpression = `${expression}.answer[${answerIndex}]`;
        const key = valueKey(answer);
        if (!key) {
          issues.push({ expression: answerExpression, message: 'An answer needs a value' });
          return;
        }
        if (!(ACCEPTED[definition.type] ?? []).includes(key)) {
          issues.push({
            expression: answerExpression,
            message: `${key} is not an answer to a ${definition.type} item ("${item.linkId}")`,
          });
          return;
        }
        if (definition.type === 'choice' && definition.answerOption?.length) {
          const value = answerValueOf(answer);
          const allowed = definition.answerOption.map((option) => answerComparisonKey(answerValueOf(option)));
          if (value && !allowed.includes(answerComparisonKey(value))) {
            issues.push({
              expression: answerExpression,
              message: `The answer is not one of the options of "${item.linkId}"`,
            });
          }
        }
        walk(definition.item, answer.item, path, answerExpression);
      });
      if (item.item?.length) walk(definition.item, item.item, path, expression);
    });
  };
  walk(questionnaire.item, response.item, '', 'QuestionnaireResponse');

  // Enablement and required answers, judged on the same model the form uses.
  const state = formStateFromResponse(questionnaire, response);
  const enablement = computeEnablement(questionnaire, state);
  for (const path of Object.keys(state.answers)) {
    if (enablement.enabled.get(path) === false) {
      issues.push({
        expression: locationOf.get(path) ?? 'QuestionnaireResponse',
        message: `Item "${path.split('/').pop()}" is answered although its enableWhen conditions are not met`,
      });
    }
  }
  const errors = itemErrors(state, enablement);
  for (const [path, message] of Object.entries(errors)) {
    if (message === 'Required' || message.startsWith('At least one')) {
      if (response.status !== 'completed' && response.status !== 'amended') continue;
    }
    const linkId = path
      .replace(/\[\d+\]$/, '')
      .split('/')
      .pop();
    issues.push({ expression: locationOf.get(path) ?? 'QuestionnaireResponse', message: `"${linkId}": ${message}` });
  }
  return issues;
}
