import { describe, expect, it } from 'vitest';
import type { AnswerValue, FormState } from './formState';
import { addGroupOccurrence, removeGroupOccurrence, setAnswers } from './formState';
import { initialFormState, formStateFromResponse } from './initialState';
import { computeEnablement } from './enablement';
import { buildResponse } from './buildResponse';
import { itemErrors } from './itemValidation';
import { validateResponse } from './validateResponse';
import { settleExpressions } from './expressionEvaluation';
import { isPaged, nextPage } from './paging';
import { compareAnswer } from './answerComparison';
import { phq9 } from '../../config/questionnaires/phq9';
import { smokingHistory } from './fixtures/smokingHistory';
import { newPatientIntake } from '../../config/questionnaires/newPatientIntake';
import { soapNoteMenopauseQuestionnaire } from '../../config/questionnaires';

const loinc = (code: string): AnswerValue => ({ valueCoding: { system: 'http://loinc.org', code } });
const PHQ_QUESTIONS = [
  '44250-9',
  '44255-8',
  '44259-0',
  '44254-1',
  '44251-7',
  '44258-2',
  '44252-5',
  '44253-3',
  '44260-8',
];

function answer(state: FormState, path: string, ...values: AnswerValue[]): FormState {
  return setAnswers(state, path, values);
}

describe('PHQ-9: calculated total score and severity', () => {
  it('sums the ordinal values of the chosen answers into the total and grades it', async () => {
    let state = initialFormState(phq9);
    // Weights 3,3,2,2,1,1,0,0,1 = 13: moderate depression.
    const choices = [
      'LA6571-9',
      'LA6571-9',
      'LA6570-1',
      'LA6570-1',
      'LA6569-3',
      'LA6569-3',
      'LA6568-5',
      'LA6568-5',
      'LA6569-3',
    ];
    PHQ_QUESTIONS.forEach((code, index) => {
      state = answer(state, `phq9-items[0]/${code}`, loinc(choices[index]));
    });
    const settled = await settleExpressions(phq9, state, {});
    expect(settled.results.errors).toEqual([]);
    expect(settled.state.answers['44261-6']).toEqual([{ valueInteger: 13 }]);
    expect(settled.state.answers['severity']).toEqual([{ valueString: 'Moderate' }]);

    const response = buildResponse(phq9, settled.state, { status: 'completed' });
    expect(response.item?.map((item) => item.linkId)).toEqual(['phq9-items', '44261-6', 'severity']);
    expect(response.item?.[0].item).toHaveLength(9);
    expect(validateResponse(phq9, response)).toEqual([]);
  });

  it('recalculates when an answer changes and leaves the score out while nothing is answered', async () => {
    const empty = await settleExpressions(phq9, initialFormState(phq9), {});
    expect(empty.state.answers['44261-6']).toBeUndefined();
    expect(empty.state.answers['severity']).toBeUndefined();
    let state = empty.state;
    for (const code of PHQ_QUESTIONS) state = answer(state, `phq9-items[0]/${code}`, loinc('LA6571-9'));
    const severe = await settleExpressions(phq9, state, {});
    expect(severe.state.answers['44261-6']).toEqual([{ valueInteger: 27 }]);
    expect(severe.state.answers['severity']).toEqual([{ valueString: 'Severe' }]);
  });

  it('reports each unanswered required question of a completed response', () => {
    const state = answer(initialFormState(phq9), 'phq9-items[0]/44250-9', loinc('LA6568-5'));
    const errors = itemErrors(state, computeEnablement(phq9, state));
    expect(Object.keys(errors)).toHaveLength(8);
    expect(errors['phq9-items[0]/44255-8']).toBe('Required');
    const response = buildResponse(phq9, state, { status: 'completed' });
    expect(validateResponse(phq9, response).map((issue) => issue.message)).toContain('"44255-8": Required');
    // A draft may be incomplete.
    expect(validateResponse(phq9, { ...response, status: 'in-progress' })).toEqual([]);
  });

  it('rejects an answer that is not one of the options, and a second answer to a single-answer item', () => {
    const response = buildResponse(phq9, answer(initialFormState(phq9), 'phq9-items[0]/44250-9', loinc('LA6568-5')), {
      status: 'in-progress',
    });
    const item = response.item?.[0].item?.[0];
    if (!item) throw new Error('missing item');
    item.answer = [loinc('LA9999-9'), loinc('LA6568-5')];
    const messages = validateResponse(phq9, response).map((issue) => `${issue.expression} ${issue.message}`);
    expect(messages).toContain(
      'QuestionnaireResponse.item[0].item[0] Item "44250-9" does not repeat but has 2 answers',
    );
    expect(messages).toContain(
      'QuestionnaireResponse.item[0].item[0].answer[0] The answer is not one of the options of "44250-9"',
    );
  });
});

describe('nested enableWhen chains', () => {
  const patient = {
    resourceType: 'Patient' as const,
    name: [{ given: ['Ruth'], family: 'Okafor' }],
    birthDate: '1960-05-01',
  };

  it('opens each question only when the one before it is answered so', () => {
    let state = initialFormState(smokingHistory);
    const enabled = (s: FormState) =>
      [...computeEnablement(smokingHistory, s).enabled].filter(([, on]) => on).map(([path]) => path);
    // "!=" is not met while the question has no answer at all (FHIR: no answer, no comparison).
    expect(enabled(state)).toEqual(['patient-name', 'smoker']);
    expect(enabled(answer(state, 'smoker', { valueBoolean: false }))).toEqual(['patient-name', 'smoker', 'never']);

    state = answer(state, 'smoker', { valueBoolean: true });
    expect(enabled(state)).toEqual(['patient-name', 'smoker', 'per-day']);

    state = answer(state, 'per-day', { valueInteger: 20 });
    expect(enabled(state)).toEqual(['patient-name', 'smoker', 'per-day', 'heavy']);

    state = answer(state, 'heavy', { valueBoolean: true });
    expect(enabled(state)).toContain('quit-date');
    // exists (heavy answered) is enough for "any".
    expect(enabled(state)).toContain('attempts[0]');
    expect(enabled(state)).toContain('attempts[0]/attempt-method/method-helped');
    expect(enabled(state)).not.toContain('attempts[0]/attempt-note');

    // A light smoker: "light" needs both < 10 and > 0 (enableBehavior all); the chain behind "heavy" closes.
    const light = answer(state, 'per-day', { valueInteger: 5 });
    expect(enabled(light)).toContain('light');
    expect(enabled(light)).not.toContain('heavy');
    expect(enabled(light)).not.toContain('quit-date');
    // heavy's answer no longer counts once heavy is disabled, so the group closes too.
    expect(enabled(light)).not.toContain('attempts[0]');
    expect(enabled(answer(state, 'per-day', { valueInteger: 0 }))).not.toContain('light');
  });

  it('leaves disabled answers out of the response, which stays valid', () => {
    let state = initialFormState(smokingHistory);
    state = answer(state, 'smoker', { valueBoolean: true });
    state = answer(state, 'per-day', { valueInteger: 20 });
    state = answer(state, 'heavy', { valueBoolean: true });
    state = answer(state, 'quit-date', { valueDate: '2027-01-01' });
    // The user then says they smoke 3 a day: the heavy-smoker answers stay in the form but not in the response.
    state = answer(state, 'per-day', { valueInteger: 3 });
    const response = buildResponse(smokingHistory, state, { status: 'completed' });
    expect(response.item?.map((item) => item.linkId)).toEqual(['smoker', 'per-day']);
    expect(validateResponse(smokingHistory, response)).toEqual([]);
    // A response that answers a disabled item is refused.
    response.item?.push({ linkId: 'never', answer: [{ valueBoolean: false }] });
    expect(validateResponse(smokingHistory, response)[0].message).toContain('"never" is answered although');
  });

  it('keeps conditions inside one occurrence of a repeating group, and renumbers after a removal', () => {
    let state = initialFormState(smokingHistory);
    state = answer(state, 'smoker', { valueBoolean: true });
    state = answer(state, 'per-day', { valueInteger: 20 });
    state = answer(state, 'heavy', { valueBoolean: false });
    const group = smokingHistory.item?.find((item) => item.linkId === 'attempts');
    if (!group) throw new Error('missing group');
    state = addGroupOccurrence(state, '', group);
    state = answer(state, 'attempts[0]/attempt-method', { valueString: 'Cold turkey' });
    state = answer(state, 'attempts[1]/attempt-method', loinc('x'));
    state = answer(state, 'attempts[1]/attempt-year', { valueInteger: 2019 });
    const enabled = computeEnablement(smokingHistory, state).enabled;
    expect(enabled.get('attempts[0]/attempt-note')).toBe(true);
    expect(enabled.get('attempts[1]/attempt-note')).toBe(false);

    const response = buildResponse(smokingHistory, state, { status: 'in-progress' });
    expect(response.item?.filter((item) => item.linkId === 'attempts')).toHaveLength(2);
    const resumed = formStateFromResponse(smokingHistory, response);
    expect(resumed.groups['attempts']).toBe(2);
    expect(resumed.answers['attempts[1]/attempt-year']).toEqual([{ valueInteger: 2019 }]);

    const removed = removeGroupOccurrence(state, '', group, 0);
    expect(removed.groups['attempts']).toBe(1);
    expect(removed.answers['attempts[0]/attempt-year']).toEqual([{ valueInteger: 2019 }]);
    expect(removed.answers['attempts[1]/attempt-year']).toBeUndefined();
  });

  it('evaluates the launch-context patient: initialExpression and an enableWhenExpression on age', async () => {
    let state = answer(initialFormState(smokingHistory), 'smoker', { valueBoolean: true });
    const first = await settleExpressions(smokingHistory, state, { patient }, { applyInitialValues: true });
    expect(first.results.errors).toEqual([]);
    expect(first.state.answers['patient-name']).toEqual([{ valueString: 'Ruth Okafor' }]);
    expect(first.results.enabled['screening']).toBe(true);
    expect(computeEnablement(smokingHistory, first.state, first.results.enabled).enabled.get('screening')).toBe(true);

    const young = await settleExpressions(smokingHistory, state, { patient: { ...patient, birthDate: '2010-01-01' } });
    expect(young.results.enabled['screening']).toBe(false);
    state = answer(state, 'smoker', { valueBoolean: false });
    expect((await settleExpressions(smokingHistory, state, { patient })).results.enabled['screening']).toBe(false);
  });

  it('checks maxLength on typed text', () => {
    let state = answer(initialFormState(smokingHistory), 'smoker', { valueBoolean: true });
    state = answer(state, 'per-day', { valueInteger: 4 });
    state = answer(state, 'light', { valueString: 'x'.repeat(21) });
    expect(itemErrors(state, computeEnablement(smokingHistory, state))['light']).toBe('At most 20 characters');
  });
});

describe('enableWhen operators', () => {
  it('compares numbers, dates, codes and quantities', () => {
    expect(compareAnswer({ valueInteger: 5 }, '>', { valueInteger: 4 })).toBe(true);
    expect(compareAnswer({ valueDecimal: 4 }, '>=', { valueInteger: 4 })).toBe(true);
    expect(compareAnswer({ valueDecimal: 3.9 }, '>=', { valueInteger: 4 })).toBe(false);
    expect(compareAnswer({ valueDate: '2024-01-02' }, '<', { valueDate: '2024-01-10' })).toBe(true);
    expect(compareAnswer({ valueDate: '2024-01-10' }, '<=', { valueDate: '2024-01-10' })).toBe(true);
    expect(
      compareAnswer({ valueCoding: { system: 'a', code: 'x' } }, '=', { valueCoding: { system: 'b', code: 'x' } }),
    ).toBe(false);
    expect(compareAnswer({ valueCoding: { code: 'x' } }, '=', { valueCoding: { system: 'b', code: 'x' } })).toBe(true);
    expect(
      compareAnswer({ valueQuantity: { value: 2, code: 'kg' } }, '>', { valueQuantity: { value: 1, code: 'kg' } }),
    ).toBe(true);
    expect(compareAnswer({ valueString: 'a' }, '!=', { valueBoolean: true })).toBe(true);
    expect(compareAnswer({ valueCoding: { code: 'x' } }, '>', { valueCoding: { code: 'a' } })).toBe(false);
  });
});

describe('a paged questionnaire', () => {
  it('is paged, and Next is refused while the page has errors', async () => {
    expect(isPaged(newPatientIntake)).toBe(true);
    expect(isPaged(phq9)).toBe(false);
    let state = initialFormState(newPatientIntake);
    const errorsOn = (s: FormState, page: string) => itemErrors(s, computeEnablement(newPatientIntake, s), page);
    expect(errorsOn(state, 'about[0]')).toEqual({
      'about[0]/preferred-name': 'Required',
      'about[0]/birth-date': 'Required',
    });
    state = answer(state, 'about[0]/preferred-name', { valueString: 'Sam' });
    state = answer(state, 'about[0]/birth-date', { valueDate: '1970-02-03' });
    state = answer(state, 'about[0]/website', { valueUri: 'not a url' });
    expect(errorsOn(state, 'about[0]')).toEqual({ 'about[0]/website': 'Must be a URL (https://…)' });
    state = answer(state, 'about[0]/website', { valueUri: 'https://sam.example' });
    expect(errorsOn(state, 'about[0]')).toEqual({});
    // The vitals page: limits and the calculated BMI.
    state = answer(state, 'vitals[0]/weight', { valueDecimal: 600 });
    expect(errorsOn(state, 'vitals[0]')['vitals[0]/weight']).toBe('Must be at most 500');
    state = answer(state, 'vitals[0]/weight', { valueDecimal: 80 });
    state = answer(state, 'vitals[0]/height', {
      valueQuantity: { value: 180, unit: 'cm', system: 'http://unitsofmeasure.org', code: 'cm' },
    });
    state = answer(state, 'vitals[0]/children', { valueInteger: 1.5 });
    expect(errorsOn(state, 'vitals[0]')['vitals[0]/children']).toBe('Must be a whole number');
    state = answer(state, 'vitals[0]/children', { valueInteger: 2 });
    const settled = await settleExpressions(newPatientIntake, state, {});
    expect(settled.results.errors).toEqual([]);
    const bmi = settled.state.answers['vitals[0]/bmi']?.[0].valueDecimal;
    expect(bmi).toBeCloseTo(24.69, 2);
    const enabled = computeEnablement(newPatientIntake, settled.state).enabled;
    expect(nextPage(newPatientIntake, enabled, 0, 1)).toBe(1);
    expect(nextPage(newPatientIntake, enabled, 2, 1)).toBe(-1);
    expect(nextPage(newPatientIntake, enabled, 1, -1)).toBe(0);
  });
});

describe('the bundled SOAP note', () => {
  it('starts with the visit date of app-spec §3 and makes a valid response of open-choice answers', () => {
    let state = initialFormState(soapNoteMenopauseQuestionnaire);
    expect(state.answers['visit-date']).toEqual([{ valueDate: '2023-10-19' }]);
    state = answer(state, 'subjective[0]/hot-flashes', { valueBoolean: true });
    state = answer(
      state,
      'subjective[0]/self-reported-history',
      {
        valueCoding: {
          system: 'https://hearth-emr.org/fhir/CodeSystem/soap-note-menopause',
          code: 'stroke',
          display: 'Stroke',
        },
      },
      { valueString: 'Migraine with aura' },
    );
    state = answer(state, 'assessment[0]/diagnosis', {
      valueCoding: { system: 'http://snomed.info/sct', code: '160398001', display: 'Late menopause' },
    });
    state = answer(state, 'plan[0]/visit-code', {
      valueCoding: { system: 'http://www.ama-assn.org/go/cpt', code: '99204', display: 'Moderate Complexity' },
    });
    const response = buildResponse(soapNoteMenopauseQuestionnaire, state, {
      status: 'completed',
      subject: { reference: 'Patient/p1' },
    });
    expect(response.questionnaire).toBe('https://hearth-emr.org/fhir/Questionnaire/soap-note-menopause-service|1.0.0');
    expect(validateResponse(soapNoteMenopauseQuestionnaire, response)).toEqual([]);
    expect(formStateFromResponse(soapNoteMenopauseQuestionnaire, response)).toEqual(state);
    // A string is not an option of a closed choice.
    const wrong = structuredClone(response);
    const diagnosis = wrong.item?.find((i) => i.linkId === 'assessment')?.item?.[0];
    if (diagnosis) diagnosis.answer = [{ valueString: 'menopause' }];
    expect(validateResponse(soapNoteMenopauseQuestionnaire, wrong)[0].message).toContain('not one of the options');
    // An item the questionnaire does not have.
    expect(
      validateResponse(soapNoteMenopauseQuestionnaire, {
        ...response,
        item: [{ linkId: 'nope', answer: [{ valueBoolean: true }] }],
      })[0].message,
    ).toBe('Item "nope" is not defined here in the questionnaire');
  });
});
