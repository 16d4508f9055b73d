import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import { SEXUAL_ORIENTATION_CHOICES } from '../../../../config/clinical/sexualOrientation';
import { SMOKING_STATUS_CHOICES } from '../../../../config/clinical/smokingStatus';
import { allergyDraftOf, ONSET_IN_FUTURE, validateAllergy } from './allergyRules';
import { isAfterDay } from '../../../../data-provider/rules';
import { medicationDraftOf, validateMedication } from './medicationRules';
import { DX_DATE_IN_FUTURE, DX_DATE_REQUIRED, problemDraftOf, validateProblem } from './problemRules';
import { answerLabel } from './socialHistoryRules';

const today = '2025-03-10';

describe('dates after today', () => {
  it('are those after the viewer’s day, compared as dates', () => {
    expect(isAfterDay('2025-03-11', today)).toBe(true);
    expect(isAfterDay('2031-05-05', today)).toBe(true);
    expect(isAfterDay('10000-01-01', today)).toBe(true);
    expect(isAfterDay('2025-03-10', today)).toBe(false);
    expect(isAfterDay('2025-03-09', today)).toBe(false);
    expect(isAfterDay('', today)).toBe(false);
    expect(isAfterDay('not a date', today)).toBe(false);
  });

  it('refuse an allergy onset, with the message under the field', () => {
    const draft = { allergen: 'Penicillin', clinicalStatus: 'active', onset: '2031-05-05', reaction: '' };
    expect(validateAllergy(draft, today).onset).toBe('The onset date cannot be in the future');
    expect(ONSET_IN_FUTURE).toBe('The onset date cannot be in the future');
    expect(validateAllergy({ ...draft, onset: today }, today)).toEqual({ allergen: undefined, onset: undefined });
    expect(validateAllergy({ ...draft, onset: '' }, today).onset).toBeUndefined();
  });

  it('refuse a problem’s Dx Date, still required', () => {
    const draft = { problem: 'Asthma', clinicalStatus: 'active', onset: '2035-01-01' };
    expect(validateProblem(draft, today).onset).toBe(DX_DATE_IN_FUTURE);
    expect(validateProblem({ ...draft, onset: today }, today).onset).toBeUndefined();
    expect(validateProblem({ ...draft, onset: '' }, today).onset).toBe(DX_DATE_REQUIRED);
  });
});

describe('the Add dialogs start alike', () => {
  it('a new allergy, problem and medication start active', () => {
    expect(allergyDraftOf(undefined).clinicalStatus).toBe('active');
    expect(problemDraftOf(undefined, today).clinicalStatus).toBe('active');
    expect(medicationDraftOf(undefined).status).toBe('active');
    expect(validateMedication(medicationDraftOf(undefined)).status).toBeUndefined();
  });

  it('a new problem is diagnosed today; an edited one keeps its own date, or none', () => {
    expect(problemDraftOf(undefined, today).onset).toBe(today);
    const dated = { resourceType: 'Condition', subject: {}, onsetDateTime: '2010-02-03' } as const;
    expect(problemDraftOf(dated, today).onset).toBe('2010-02-03');
    expect(problemDraftOf({ resourceType: 'Condition', subject: {} }, today).onset).toBe('');
  });

  it('an edited order keeps its own status', () => {
    const stopped = { resourceType: 'MedicationRequest', status: 'stopped', intent: 'order', subject: {} } as const;
    expect(medicationDraftOf(stopped).status).toBe('stopped');
  });
});

describe('the smoking status answer', () => {
  const answered = (coding: Observation['valueCodeableConcept']): Observation => ({
    resourceType: 'Observation',
    status: 'final',
    code: { coding: [{ system: 'http://loinc.org', code: '72166-2' }] },
    valueCodeableConcept: coding,
  });

  it('is named as the dialog names it, whatever the record’s own text (app-spec §9: ex-smoker)', () => {
    const imported = answered({
      coding: [{ system: 'http://snomed.info/sct', code: '8517006', display: 'Former smoker' }],
      text: 'Former smoker',
    });
    expect(answerLabel(SMOKING_STATUS_CHOICES, imported)).toBe('Ex-smoker');
    expect(SMOKING_STATUS_CHOICES.find((c) => c.code === '8517006')?.display).toBe('Ex-smoker');
  });

  it('keeps the record’s text for an answer that is none of the choices', () => {
    const other = answered({ coding: [{ system: 'http://example.org', code: '8517006' }], text: 'Pipe, weekends' });
    expect(answerLabel(SMOKING_STATUS_CHOICES, other)).toBe('Pipe, weekends');
    expect(answerLabel(SEXUAL_ORIENTATION_CHOICES, undefined)).toBe('');
  });
});
