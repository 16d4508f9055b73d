import type { QuestionnaireItemEnableWhen } from '@medplum/fhirtypes';
import { answerValueOf } from './initialState';
import type { AnswerValue } from './formState';

type Comparable = number | string | boolean | undefined;

/** The value an answer is compared by, and of which kind (numbers, text, codes, quantities...). */
function key(answer: AnswerValue): { kind: string; value: Comparable; unit?: string; system?: string } {
  if (answer.valueBoolean !== undefined) return { kind: 'boolean', value: answer.valueBoolean };
  if (answer.valueDecimal !== undefined) return { kind: 'number', value: answer.valueDecimal };
  if (answer.valueInteger !== undefined) return { kind: 'number', value: answer.valueInteger };
  if (answer.valueQuantity) {
    return {
      kind: 'quantity',
      value: answer.valueQuantity.value,
      unit: answer.valueQuantity.code ?? answer.valueQuantity.unit,
    };
  }
  if (answer.valueCoding) return { kind: 'coding', value: answer.valueCoding.code, system: answer.valueCoding.system };
  if (answer.valueReference) return { kind: 'reference', value: answer.valueReference.reference };
  if (answer.valueAttachment)
    return { kind: 'attachment', value: answer.valueAttachment.url ?? answer.valueAttachment.title };
  if (answer.valueDate !== undefined) return { kind: 'date', value: answer.valueDate };
  if (answer.valueDateTime !== undefined) return { kind: 'date', value: answer.valueDateTime };
  if (answer.valueTime !== undefined) return { kind: 'time', value: answer.valueTime };
  return { kind: 'string', value: answer.valueString ?? answer.valueUri };
}

function compatible(a: ReturnType<typeof key>, b: ReturnType<typeof key>): boolean {
  // An integer question compared with a decimal, a string with a uri...: same kind, or both numbers.
  if (a.kind === b.kind) return true;
  const numeric = new Set(['number', 'quantity']);
  return numeric.has(a.kind) && numeric.has(b.kind);
}

/** `answer <operator> expected`, FHIR's enableWhen comparison (codes match on system when both have one). */
export function compareAnswer(answer: AnswerValue, operator: string, expected: AnswerValue): boolean {
  const a = key(answer);
  const b = key(expected);
  if (!compatible(a, b)) return operator === '!=';
  const equal =
    a.value === b.value &&
    (a.kind !== 'coding' || !a.system || !b.system || a.system === b.system) &&
    (a.kind !== 'quantity' || !a.unit || !b.unit || a.unit === b.unit);
  switch (operator) {
    case '=':
      return equal;
    case '!=':
      return !equal;
    case '>':
    case '<':
    case '>=':
    case '<=': {
      if (a.value === undefined || b.value === undefined) return false;
      if (a.kind === 'coding' || a.kind === 'boolean' || a.kind === 'reference') return false;
      const order = a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
      if (operator === '>') return order > 0;
      if (operator === '<') return order < 0;
      if (operator === '>=') return order >= 0;
      return order <= 0;
    }
    default:
      return false;
  }
}

/** One enableWhen condition against the answers of its question. */
export function enableWhenHolds(condition: QuestionnaireItemEnableWhen, answers: readonly AnswerValue[]): boolean {
  if (condition.operator === 'exists') return answers.length > 0 === (condition.answerBoolean ?? true);
  const expected = answerValueOf(
    Object.fromEntries(
      Object.entries(condition)
        .filter(([name]) => name.startsWith('answer'))
        .map(([name, value]) => [name.replace(/^answer/, 'value'), value]),
    ),
  );
  if (!expected || answers.length === 0) return false;
  if (condition.operator === '!=') return answers.every((answer) => compareAnswer(answer, '!=', expected));
  return answers.some((answer) => compareAnswer(answer, condition.operator, expected));
}
