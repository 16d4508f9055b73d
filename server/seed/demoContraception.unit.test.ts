import type { MedicationRequest, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { activeCombinedContraceptionOf, contraceptionReview, contraceptionReviewFor } from './demoContraception';
import { ASTHMA, HYPERTENSION, HYPERTENSION_ON_AMLODIPINE, PREVENTIVE_CARE } from './demoClinicalStories';
import type { PatientRecord } from './demoPatientRecord';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const patient: Patient = { resourceType: 'Patient', id: 'p', gender: 'female', birthDate: '2000-11-15' };
const order = (
  status: MedicationRequest['status'],
  code: string | undefined,
  name: string | undefined,
): MedicationRequest => ({
  resourceType: 'MedicationRequest',
  status,
  intent: 'order',
  subject: { reference: 'Patient/p' },
  medicationCodeableConcept: {
    ...(code || name
      ? { coding: [{ system: RXNORM, ...(code ? { code } : {}), ...(name ? { display: name } : {}) }] }
      : {}),
    ...(name ? { text: name } : {}),
  },
});
const recordWith = (...medications: MedicationRequest[]): PatientRecord => ({
  patient,
  conditions: [],
  allergies: [],
  medications,
  carePlans: [],
});

describe('activeCombinedContraceptionOf', () => {
  it('finds the active combined pill of a Synthea record (Wendy Littel’s Trinessa), past ones stopped', () => {
    const trinessa = order('active', '751905', 'Trinessa 28 Day Pack');
    const found = activeCombinedContraceptionOf(
      recordWith(
        order('stopped', '748879', 'Levora 0.15/30 28 Day Pack'),
        order('stopped', '748856', 'Yaz 28 Day Pack'),
        trinessa,
      ),
    );
    expect(found).toEqual({ order: trinessa, name: 'Trinessa 28 Day Pack', form: 'pill' });
  });

  it('knows Synthea’s other estrogen-containing packs by their RxNorm code alone', () => {
    for (const code of ['748879', '748856', '749762', '978950', '235389']) {
      expect(activeCombinedContraceptionOf(recordWith(order('active', code, undefined))), code).toBeDefined();
    }
  });

  it('knows one by its ingredients or brand when the code is another, and names its form', () => {
    const ring = activeCombinedContraceptionOf(
      recordWith(order('active', '1367439', 'etonogestrel 0.12 MG/Day / ethinyl estradiol 0.015 MG/Day Vaginal Ring')),
    );
    expect(ring?.form).toBe('vaginal ring');
    const patch = activeCombinedContraceptionOf(
      recordWith(order('active', '999999', 'Xulane 150/35 MCG/Day 7 Day Transdermal System')),
    );
    expect(patch?.form).toBe('patch');
    expect(
      activeCombinedContraceptionOf(
        recordWith(order('active', undefined, 'Levonorgestrel 0.15 MG / Ethinyl Estradiol 0.03 MG Oral Tablet')),
      )?.form,
    ).toBe('pill');
  });

  it('leaves progestin-only and non-hormonal methods, stopped or completed packs and other drugs alone', () => {
    const none = [
      order('active', '748962', 'Camila 28 Day Pack'),
      order('active', '831533', 'Errin 28 Day Pack'),
      order('active', '757594', 'Jolivette 28 Day Pack'),
      order('active', '1000126', '1 ML medroxyprogesterone acetate 150 MG/ML Injection'),
      order('active', '389221', 'Etonogestrel 68 MG Drug Implant'),
      order('active', '807283', 'Mirena 52 MG Intrauterine System'),
      order('active', '197361', 'Amlodipine 5 MG Oral Tablet'),
      order('stopped', '751905', 'Trinessa 28 Day Pack'),
      order('completed', '748856', 'Yaz 28 Day Pack'),
      order('entered-in-error', '748879', 'Levora 0.15/30 28 Day Pack'),
    ];
    expect(activeCombinedContraceptionOf(recordWith(...none))).toBeUndefined();
    expect(activeCombinedContraceptionOf(recordWith())).toBeUndefined();
  });
});

describe('contraceptionReview', () => {
  it('asks for a change of method and says why, without stopping anything', () => {
    const review = contraceptionReview({
      order: order('active', '751905', 'Trinessa 28 Day Pack'),
      name: 'Trinessa 28 Day Pack',
      form: 'pill',
    });
    expect(review.task).toBe(
      'Review contraception: combined pill (Trinessa 28 Day Pack) with high blood pressure — offer a progestin-only or non-hormonal method',
    );
    expect(review.carePlanNote).toMatch(/estrogen/);
    expect(review.carePlanNote).toMatch(/progestin-only or non-hormonal/);
    expect(`${review.task} ${review.carePlanNote}`).not.toMatch(/\bstop/i);
  });
});

describe('contraceptionReviewFor', () => {
  const onPill = recordWith(order('active', '751905', 'Trinessa 28 Day Pack'));

  it('reviews the combined pill of a patient whose hypertension is being treated, whichever the drug', () => {
    for (const story of [HYPERTENSION_ON_AMLODIPINE, HYPERTENSION]) {
      expect(contraceptionReviewFor(onPill, story)?.contraception.name).toBe('Trinessa 28 Day Pack');
    }
  });

  it('raises nothing for another story, or without an active combined method', () => {
    expect(contraceptionReviewFor(onPill, PREVENTIVE_CARE)).toBeUndefined();
    expect(contraceptionReviewFor(onPill, ASTHMA)).toBeUndefined();
    expect(
      contraceptionReviewFor(recordWith(order('active', '748962', 'Camila 28 Day Pack')), HYPERTENSION_ON_AMLODIPINE),
    ).toBeUndefined();
    expect(
      contraceptionReviewFor(
        recordWith(order('stopped', '751905', 'Trinessa 28 Day Pack')),
        HYPERTENSION_ON_AMLODIPINE,
      ),
    ).toBeUndefined();
  });
});
