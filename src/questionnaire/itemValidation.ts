import type { QuestionnaireItem } from '@medplum/fhirtypes';
import type { AnswerValue, FormState } from './formState';
import type { Enablement } from './enablement';
import { EXT, numberLimit } from './questionnaireExtensions';

/** Message for one answer that does not fit its item, or undefined. */
export function answerProblem(item: QuestionnaireItem, answer: AnswerValue): string | undefined {
  const text = answer.valueString ?? answer.valueUri;
  if (item.maxLength !== undefined && text !== undefined && text.length > item.maxLength) {
    return `At most ${item.maxLength} characters`;
  }
  if (item.type === 'integer' && answer.valueInteger !== undefined && !Number.isInteger(answer.valueInteger)) {
    return 'Must be a whole number';
  }
  const number = answer.valueInteger ?? answer.valueDecimal ?? answer.valueQuantity?.value;
  if ((item.type === 'decimal' || item.type === 'integer' || item.type === 'quantity') && number !== undefined) {
    if (!Number.isFinite(number)) return 'Must be a number';
    const min = numberLimit(item, EXT.minValue);
    const max = numberLimit(item, EXT.maxValue);
    if (min !== undefined && number < min) return `Must be at least ${min}`;
    if (max !== undefined && number > max) return `Must be at most ${max}`;
  }
  if (item.type === 'url' && answer.valueUri !== undefined && !/^[a-z][a-z0-9+.-]*:\S+$/i.test(answer.valueUri)) {
    return 'Must be a URL (https://…)';
  }
  return undefined;
}

function hasAnswerBelow(path: string, state: FormState, enablement: Enablement): boolean {
  const prefix = `${path}/`;
  return Object.entries(state.answers).some(
    ([answerPath, answers]) =>
      answerPath.startsWith(prefix) && answers.length > 0 && enablement.enabled.get(answerPath),
  );
}

/**
 * Problems of the enabled items (path → message): required ones without an answer (a required
 * group needs one answer inside), answers that do not fit, more than one answer where one is allowed.
 * `within` limits the check to the occurrences under a path (a page).
 */
export function itemErrors(state: FormState, enablement: Enablement, within?: string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const { item, path } of enablement.occurrences) {
    if (within !== undefined && path !== within && !path.startsWith(`${within}/`)) continue;
    if (!enablement.enabled.get(path) || item.type === 'display') continue;
    if (item.type === 'group') {
      if (item.required && !hasAnswerBelow(path, state, enablement)) errors[path] = 'At least one answer is required';
      continue;
    }
    const answers = state.answers[path] ?? [];
    if (item.required && answers.length === 0) {
      errors[path] = 'Required';
      continue;
    }
    if (!item.repeats && answers.length > 1) {
      errors[path] = 'Only one answer is allowed';
      continue;
    }
    const problem = answers.map((answer) => answerProblem(item, answer)).find(Boolean);
    if (problem) errors[path] = problem;
  }
  return errors;
}
