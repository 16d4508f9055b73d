import type {
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  Resource,
} from '@medplum/fhirtypes';
import type { AnswerValue, FormState } from './formState';
import { occurrences } from './formState';
import { buildResponse } from './buildResponse';
import { loadFhirpath } from './fhirpathEngine';
import { EXT, expressionOf, variablesOf } from './questionnaireExtensions';

/** Resources the questionnaire's launchContext names (`%patient`, `%user`, `%encounter`). */
export type LaunchContext = Partial<Record<string, Resource>>;

export interface ExpressionResults {
  /** enableWhenExpression results by occurrence path. */
  enabled: Record<string, boolean>;
  /** calculatedExpression answers by question path. */
  calculated: Record<string, AnswerValue[]>;
  /** initialExpression answers by question path (applied once, to a fresh form). */
  initial: Record<string, AnswerValue[]>;
  /** Expressions that failed, with their message (shown to the form's author, never thrown). */
  errors: { path: string; expression: string; message: string }[];
}

/** True when the questionnaire uses any expression: the form then waits for the engine. */
export function hasExpressions(questionnaire: Questionnaire): boolean {
  const json = JSON.stringify(questionnaire);
  return [EXT.calculatedExpression, EXT.initialExpression, EXT.enableWhenExpression, EXT.variable].some((url) =>
    json.includes(url),
  );
}

/** A FHIRPath result as answers of an item's type (numbers for decimal, codes for choice...). */
export function toAnswers(item: QuestionnaireItem, values: unknown[]): AnswerValue[] {
  const answers: AnswerValue[] = [];
  for (const value of values) {
    if (value === undefined || value === null) continue;
    switch (item.type) {
      case 'boolean':
        if (typeof value === 'boolean') answers.push({ valueBoolean: value });
        break;
      case 'decimal':
        if (typeof value === 'number' && Number.isFinite(value)) answers.push({ valueDecimal: value });
        break;
      case 'integer':
        if (typeof value === 'number' && Number.isFinite(value)) answers.push({ valueInteger: Math.round(value) });
        break;
      case 'date':
        answers.push({ valueDate: String(value).slice(0, 10) });
        break;
      case 'dateTime':
        answers.push({ valueDateTime: String(value) });
        break;
      case 'time':
        answers.push({ valueTime: String(value) });
        break;
      case 'url':
        answers.push({ valueUri: String(value) });
        break;
      case 'quantity':
        if (typeof value === 'object' && 'value' in (value as object)) answers.push({ valueQuantity: value as never });
        else if (typeof value === 'number') answers.push({ valueQuantity: { value } });
        break;
      case 'reference':
        if (typeof value === 'object' && 'reference' in (value as object))
          answers.push({ valueReference: value as never });
        break;
      case 'choice':
      case 'open-choice':
        if (typeof value === 'object' && 'code' in (value as object)) answers.push({ valueCoding: value as never });
        else answers.push({ valueString: String(value) });
        break;
      default:
        answers.push({ valueString: typeof value === 'object' ? JSON.stringify(value) : String(value) });
    }
  }
  return item.repeats ? answers : answers.slice(0, 1);
}

/** The response item an occurrence path stands for, when it is in the response. */
function responseNode(response: QuestionnaireResponse, path: string): QuestionnaireResponseItem | undefined {
  let items = response.item;
  let node: QuestionnaireResponseItem | undefined;
  for (const segment of path.split('/')) {
    const match = /^(.*)\[(\d+)\]$/.exec(segment);
    const linkId = match ? match[1] : segment;
    const index = match ? Number(match[2]) : 0;
    node = (items ?? []).filter((item) => item.linkId === linkId)[index];
    if (!node) return undefined;
    items = node.item ?? node.answer?.[0]?.item;
  }
  return node;
}

/**
 * Evaluates the questionnaire's expressions against the response being filled (`%resource`),
 * with `%questionnaire`, the launch context and the variables in scope (questionnaire-level, then
 * each ancestor's, then the item's own). Item expressions run with the item's response node as
 * their context when it exists, else the response.
 */
export async function evaluateExpressions(
  questionnaire: Questionnaire,
  state: FormState,
  launch: LaunchContext,
  previous: Record<string, boolean> = {},
): Promise<ExpressionResults> {
  const { fhirpath, model } = await loadFhirpath();
  const response = buildResponse(questionnaire, state, { status: 'in-progress', authored: '1970-01-01' }, previous);
  const results: ExpressionResults = { enabled: {}, calculated: {}, initial: {}, errors: [] };
  const baseVars: Record<string, unknown> = {
    resource: response,
    rootResource: response,
    questionnaire,
    ...Object.fromEntries(Object.entries(launch).filter(([, value]) => value !== undefined)),
  };

  const run = async (
    path: string,
    expression: string,
    vars: Record<string, unknown>,
    node: unknown,
  ): Promise<unknown[] | undefined> => {
    try {
      const base = node && node !== response ? { base: 'QuestionnaireResponse.item', expression } : expression;
      const value = await fhirpath.evaluate(node ?? response, base, vars, model, { traceFn: () => undefined });
      return Array.isArray(value) ? value : [value];
    } catch (error) {
      results.errors.push({ path, expression, message: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  };

  const rootVars = { ...baseVars };
  for (const variable of variablesOf(questionnaire)) {
    rootVars[variable.name] = (await run('', variable.expression, rootVars, response)) ?? [];
  }

  // Variables of each occurrence, inherited by its descendants.
  const scope = new Map<string, Record<string, unknown>>([['', rootVars]]);
  for (const { item, path, parentPath } of occurrences(questionnaire, state)) {
    const node = responseNode(response, path);
    const vars = { ...(scope.get(parentPath) ?? rootVars) };
    for (const variable of variablesOf(item)) {
      vars[variable.name] = (await run(path, variable.expression, vars, node)) ?? [];
    }
    scope.set(path, vars);
    const enableWhen = expressionOf(item, EXT.enableWhenExpression);
    if (enableWhen) {
      const value = await run(path, enableWhen, vars, node);
      results.enabled[path] = !!value && value.length > 0 && value.every((v) => v === true);
    }
    const calculated = expressionOf(item, EXT.calculatedExpression);
    if (calculated) {
      const value = await run(path, calculated, vars, node);
      if (value) results.calculated[path] = toAnswers(item, value);
    }
    const initial = expressionOf(item, EXT.initialExpression);
    if (initial) {
      const value = await run(path, initial, vars, node);
      if (value) results.initial[path] = toAnswers(item, value);
    }
  }
  return results;
}

function sameAnswers(a: AnswerValue[] | undefined, b: AnswerValue[] | undefined): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}

/** The state with the calculated answers written in (unchanged object when nothing differs). */
export function applyCalculated(state: FormState, calculated: Record<string, AnswerValue[]>): FormState {
  const changed = Object.entries(calculated).filter(([path, answers]) => !sameAnswers(state.answers[path], answers));
  if (changed.length === 0) return state;
  const answers = { ...state.answers };
  for (const [path, values] of changed) {
    if (values.length) answers[path] = values;
    else delete answers[path];
  }
  return { ...state, answers };
}

/** The state with initialExpression answers for questions that have none yet. */
export function applyInitial(state: FormState, initial: Record<string, AnswerValue[]>): FormState {
  const missing = Object.entries(initial).filter(([path, values]) => values.length && !state.answers[path]?.length);
  if (missing.length === 0) return state;
  return { ...state, answers: { ...state.answers, ...Object.fromEntries(missing) } };
}

/**
 * Evaluates until the calculated answers and enableWhen expressions settle (a calculation can
 * depend on another, or on an item an expression enables); at most `rounds` passes.
 */
export async function settleExpressions(
  questionnaire: Questionnaire,
  state: FormState,
  launch: LaunchContext,
  options: { applyInitialValues?: boolean; previous?: Record<string, boolean>; rounds?: number } = {},
): Promise<{ state: FormState; results: ExpressionResults }> {
  let current = state;
  let enabled = options.previous ?? {};
  let results = await evaluateExpressions(questionnaire, current, launch, enabled);
  if (options.applyInitialValues) {
    current = applyInitial(current, results.initial);
  }
  for (let round = 0; round < (options.rounds ?? 5); round++) {
    const next = applyCalculated(current, results.calculated);
    const enabledChanged = JSON.stringify(results.enabled) !== JSON.stringify(enabled);
    if (next === current && !enabledChanged && round > 0) break;
    current = next;
    enabled = results.enabled;
    results = await evaluateExpressions(questionnaire, current, launch, enabled);
  }
  return { state: applyCalculated(current, results.calculated), results };
}
