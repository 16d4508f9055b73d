import { describe, expect, it } from 'vitest';
import type { Condition, MedicationRequest } from '@medplum/fhirtypes';
import { SMOKING_STATUS_CHOICES, SMOKING_STATUS_CODE } from '../../../../config/clinical/smokingStatus';
import { SEXUAL_ORIENTATION_CHOICES } from '../../../../config/clinical/sexualOrientation';
import { MEDICATION_REQUEST_STATUSES } from '../../../../config/clinical/medicationStatus';
import { ALLERGEN_REQUIRED, buildAllergy, validateAllergy } from './allergyRules';
import { buildCondition, DX_DATE_REQUIRED, problemDraftOf, validateProblem } from './problemRules';
import {
  buildMedicationRequest,
  medicationDraftOf,
  medicationNameOf,
  NOT_SIGNED_IN,
  STATUS_REQUIRED,
  validateMedication,
} from './medicationRules';
import { buildSocialHistoryObservation, CHOICE_REQUIRED, validateChoice } from './socialHistoryRules';
import { ageOf, readableDate } from '../../../../data-provider/formatting';

const patient = { reference: 'Patient/p1' };

describe('problem rules', () => {
  it('needs a Dx date and a problem', () => {
    expect(validateProblem({ problem: 'Asthma', clinicalStatus: 'active', onset: '' }).onset).toBe(DX_DATE_REQUIRED);
    expect(validateProblem({ problem: ' ', clinicalStatus: 'active', onset: '2024-01-02' }).problem).toBeDefined();
    expect(validateProblem({ problem: 'Asthma', clinicalStatus: 'active', onset: '2024-01-02' })).toEqual({
      problem: undefined,
      onset: undefined,
    });
  });

  it('builds a problem-list-item Condition and keeps the codes of an unchanged name on edit', () => {
    const created = buildCondition({ problem: 'Asthma', clinicalStatus: 'active', onset: '2024-01-02' }, patient);
    expect(created).toMatchObject({
      resourceType: 'Condition',
      subject: patient,
      category: [{ coding: [{ code: 'problem-list-item' }] }],
      code: { text: 'Asthma' },
      clinicalStatus: { coding: [{ code: 'active' }] },
      onsetDateTime: '2024-01-02',
    });
    const existing: Condition = {
      resourceType: 'Condition',
      id: 'c1',
      subject: patient,
      code: { coding: [{ system: 'http://snomed.info/sct', code: '195967001', display: 'Asthma' }] },
      onsetDateTime: '2019-05-01T00:00:00Z',
    };
    const draft = problemDraftOf(existing);
    expect(draft).toEqual({
      problem: 'Asthma',
      problemConcept: { concept: existing.code, label: 'Asthma' },
      clinicalStatus: 'active',
      onset: '2019-05-01',
    });
    const edited = buildCondition({ ...draft, clinicalStatus: 'resolved' }, patient, existing);
    expect(edited.id).toBe('c1');
    expect(edited.code).toEqual(existing.code);
    expect(edited.clinicalStatus?.coding?.[0]?.code).toBe('resolved');
    expect(buildCondition({ ...draft, problem: 'Severe asthma' }, patient, existing).code).toEqual({
      text: 'Severe asthma',
    });
  });
});

describe('allergy rules', () => {
  it('needs an allergen and writes the reaction as manifestation text', () => {
    expect(validateAllergy({ allergen: '', clinicalStatus: 'active', onset: '', reaction: '' }).allergen).toBe(
      ALLERGEN_REQUIRED,
    );
    const allergy = buildAllergy(
      { allergen: 'Peanut', clinicalStatus: 'active', onset: '2010-04-01', reaction: 'Hives' },
      patient,
    );
    expect(allergy).toMatchObject({
      resourceType: 'AllergyIntolerance',
      patient,
      code: { text: 'Peanut' },
      onsetDateTime: '2010-04-01',
      reaction: [{ manifestation: [{ text: 'Hives' }] }],
    });
    const bare = buildAllergy({ allergen: 'Latex', clinicalStatus: 'inactive', onset: '', reaction: '' }, patient);
    expect('onsetDateTime' in bare).toBe(false);
    expect('reaction' in bare).toBe(false);
  });
});

describe('medication rules', () => {
  it('offers the eight statuses of app-spec §4 and needs one', () => {
    expect([...MEDICATION_REQUEST_STATUSES]).toEqual([
      'active',
      'stopped',
      'on-hold',
      'cancelled',
      'completed',
      'entered-in-error',
      'draft',
      'unknown',
    ]);
    expect(validateMedication({ medication: 'Aspirin', status: '' }).status).toBe(STATUS_REQUIRED);
  });

  it('is an order requested by the signed-in profile, and refused without one', () => {
    const requester = { reference: 'Practitioner/alice', display: 'Alice' };
    const result = buildMedicationRequest(
      { medication: 'Aspirin 81 mg', status: 'active' },
      patient,
      requester,
      undefined,
      '2024-03-12T10:00:00.000Z',
    );
    expect(result).toEqual({
      request: {
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        subject: patient,
        requester,
        medicationCodeableConcept: { text: 'Aspirin 81 mg' },
        authoredOn: '2024-03-12T10:00:00.000Z',
      },
    });
    expect(buildMedicationRequest({ medication: 'Aspirin', status: 'active' }, patient, undefined)).toEqual({
      error: NOT_SIGNED_IN,
    });
  });

  it('keeps an order that points at a Medication pointing at it, and never writes two medication[x] values', () => {
    const requester = { reference: 'Practitioner/alice' };
    const existing: MedicationRequest = {
      resourceType: 'MedicationRequest',
      id: 'm1',
      status: 'active',
      intent: 'order',
      subject: patient,
      requester,
      medicationReference: { reference: 'Medication/x', display: 'Metformin 500 mg' },
    };
    const draft = medicationDraftOf(existing);
    expect(draft.medication).toBe('Metformin 500 mg');
    expect(medicationNameOf(existing)).toBe('Metformin 500 mg');

    const statusOnly = buildMedicationRequest({ ...draft, status: 'stopped' }, patient, requester, existing);
    if (!('request' in statusOnly)) throw new Error('expected a request');
    expect(statusOnly.request.medicationReference).toEqual(existing.medicationReference);
    expect(statusOnly.request.medicationCodeableConcept).toBeUndefined();
    expect(statusOnly.request.status).toBe('stopped');

    const renamed = buildMedicationRequest({ ...draft, medication: 'Metformin 1000 mg' }, patient, requester, existing);
    if (!('request' in renamed)) throw new Error('expected a request');
    expect(renamed.request.medicationCodeableConcept).toEqual({ text: 'Metformin 1000 mg' });
    expect('medicationReference' in renamed.request).toBe(false);
  });
});

describe('social history rules', () => {
  it('require one of the §9 choices', () => {
    expect(validateChoice(SMOKING_STATUS_CHOICES, '')).toBe(CHOICE_REQUIRED);
    expect(validateChoice(SMOKING_STATUS_CHOICES, '38628009')).toBe(CHOICE_REQUIRED);
    expect(validateChoice(SEXUAL_ORIENTATION_CHOICES, '38628009')).toBeUndefined();
    expect(SMOKING_STATUS_CHOICES.map((c) => c.code)).toEqual([
      '266919005',
      '266927001',
      '428041000124106',
      '428061000124105',
      '428071000124103',
      '449868002',
      '77176002',
      '8517006',
    ]);
    expect(SEXUAL_ORIENTATION_CHOICES.map((c) => c.code)).toEqual([
      '38628009',
      '20430005',
      '42035005',
      'OTH',
      'UNK',
      'ASKU',
    ]);
  });

  it('build a final social-history Observation', () => {
    const observation = buildSocialHistoryObservation(
      SMOKING_STATUS_CODE,
      SMOKING_STATUS_CHOICES,
      '8517006',
      patient,
      '2024-03-12',
    );
    expect(observation).toMatchObject({
      status: 'final',
      category: [{ coding: [{ code: 'social-history' }] }],
      code: { coding: [{ code: '72166-2' }] },
      valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code: '8517006', display: 'Ex-smoker' }] },
    });
  });
});

describe('readable dates', () => {
  it('formats dates as people read them', () => {
    expect(readableDate('2024-03-12')).toBe('12 Mar 2024');
    expect(readableDate('2024-03')).toBe('Mar 2024');
    expect(readableDate(undefined)).toBe('');
  });

  it('gives the age in years, months under two, days under one month', () => {
    const today = new Date(2024, 2, 12);
    expect(ageOf('1972-03-12', today)).toBe('52 y');
    expect(ageOf('1972-03-13', today)).toBe('51 y');
    expect(ageOf('2022-09-01', today)).toBe('18 mo');
    expect(ageOf('2024-03-01', today)).toBe('11 d');
    expect(ageOf('2030-01-01', today)).toBeUndefined();
    expect(ageOf('garbage', today)).toBeUndefined();
  });
});
