/**
 * The summary's rules on records as Synthea (and other EHRs' exports) write them, fields copied
 * from the Synthea R4 sample bundles (synthetic data, Apache-2.0): problems with only a period or a
 * recorded date, coded reactions, orders that point at a Medication, patients who have died.
 */
import { describe, expect, it } from 'vitest';
import type { AllergyIntolerance, Condition, MedicationRequest } from '@medplum/fhirtypes';
import { referenceNamesOf } from '../../referenceNames';
import { allergyDraftOf, buildAllergy, reactionText } from './allergyRules';
import { birthLine } from './birthLine';
import { currentFirst } from './currentFirst';
import { buildMedicationRequest, medicationDraftOf, medicationNameOf } from './medicationRules';
import { datedBy, onsetDayOf } from './onsetDates';
import { isCurrentCondition, isProblemListEntry } from './problemListEntries';
import { buildCondition, problemDraftOf } from './problemRules';

const patient = { reference: 'Patient/p1' };
const encounterDiagnosis = [
  {
    coding: [
      {
        system: 'http://terminology.hl7.org/CodeSystem/condition-category',
        code: 'encounter-diagnosis',
        display: 'Encounter Diagnosis',
      },
    ],
  },
];
const clinical = (code: string) => ({
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code }],
});
const heartFailure: Condition = {
  resourceType: 'Condition',
  id: 'chf',
  clinicalStatus: clinical('active'),
  category: encounterDiagnosis,
  code: {
    coding: [
      { system: 'http://snomed.info/sct', code: '88805009', display: 'Chronic congestive heart failure (disorder)' },
    ],
    text: 'Chronic congestive heart failure (disorder)',
  },
  subject: patient,
  recordedDate: '1977-06-22T21:51:36+00:00',
};
const sinusitis: Condition = {
  resourceType: 'Condition',
  id: 'sinusitis',
  clinicalStatus: clinical('resolved'),
  category: encounterDiagnosis,
  code: { text: 'Viral sinusitis (disorder)' },
  subject: patient,
  onsetDateTime: '1993-11-21T10:10:00+00:00',
  abatementDateTime: '1993-12-05T10:10:00+00:00',
};
const appendicitis: Condition = {
  resourceType: 'Condition',
  id: 'appendicitis',
  clinicalStatus: clinical('active'),
  code: { text: 'Appendicitis' },
  subject: patient,
  onsetPeriod: { start: '1969-06-07T21:51:36+00:00' },
  recordedDate: '1969-06-07T21:51:36+00:00',
};

describe('problems as imported records write them', () => {
  it('lists a current encounter diagnosis (newer Synthea categorises every condition so), not a resolved one', () => {
    expect(isProblemListEntry(heartFailure)).toBe(true);
    expect(isProblemListEntry(sinusitis)).toBe(false);
    expect(isProblemListEntry(appendicitis)).toBe(true);
    expect(isProblemListEntry({ ...heartFailure, category: [{ coding: [{ code: 'problem-list-item' }] }] })).toBe(true);
    expect(isProblemListEntry({ ...heartFailure, category: [{ coding: [{ code: 'health-concern' }] }] })).toBe(false);
    expect(isCurrentCondition({ ...sinusitis, clinicalStatus: clinical('recurrence') })).toBe(true);
  });

  it('dates a problem by its onset period, else by when it was recorded, said as such', () => {
    expect(datedBy(appendicitis)).toEqual({ kind: 'onset', date: '1969-06-07T21:51:36+00:00' });
    expect(datedBy(heartFailure)).toEqual({ kind: 'recorded', date: '1977-06-22T21:51:36+00:00' });
    const bare: Condition = { resourceType: 'Condition', subject: patient };
    expect(datedBy(bare)).toBeUndefined();
    expect(onsetDayOf(appendicitis)).toBe('1969-06-07');
    expect(onsetDayOf(heartFailure)).toBe('');
  });

  it('fills the Dx date from an onset period and saves one onset[x]: the period kept, or the new day alone', () => {
    const draft = problemDraftOf(appendicitis);
    expect(draft.onset).toBe('1969-06-07');
    const unchanged = buildCondition({ ...draft, clinicalStatus: 'resolved' }, patient, appendicitis);
    expect(unchanged.onsetPeriod).toEqual(appendicitis.onsetPeriod);
    expect('onsetDateTime' in unchanged).toBe(false);
    const moved = buildCondition({ ...draft, onset: '1969-06-01' }, patient, appendicitis);
    expect(moved.onsetDateTime).toBe('1969-06-01');
    expect('onsetPeriod' in moved).toBe(false);
    // A problem recorded without an onset gets the clinician's Dx date, its recorded date untouched.
    const dated = buildCondition({ ...problemDraftOf(heartFailure), onset: '1977-06-01' }, patient, heartFailure);
    expect(dated).toMatchObject({ onsetDateTime: '1977-06-01', recordedDate: heartFailure.recordedDate });
  });

  it('lists current problems first, each group newest first and undated ones last', () => {
    const undated: Condition = {
      resourceType: 'Condition',
      id: 'undated',
      clinicalStatus: clinical('active'),
      subject: patient,
    };
    const ordered = currentFirst(
      [sinusitis, undated, appendicitis, heartFailure],
      isCurrentCondition,
      (condition) => datedBy(condition)?.date,
    );
    expect(ordered.map((condition) => condition.id)).toEqual(['chf', 'appendicitis', 'undated', 'sinusitis']);
  });
});

describe('allergies as imported records write them', () => {
  const peanuts: AllergyIntolerance = {
    resourceType: 'AllergyIntolerance',
    id: 'a1',
    clinicalStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }],
    },
    type: 'allergy',
    category: ['food'],
    criticality: 'low',
    code: { coding: [{ system: 'http://snomed.info/sct', code: '91935009', display: 'Allergy to peanuts' }] },
    patient,
    recordedDate: '2010-05-02T10:17:37-04:00',
    reaction: [
      {
        manifestation: [
          { coding: [{ system: 'http://snomed.info/sct', code: '247472004', display: 'Wheal (finding)' }] },
        ],
        severity: 'mild',
      },
      {
        manifestation: [
          { coding: [{ system: 'http://snomed.info/sct', code: '271807003', display: 'Eruption of skin (disorder)' }] },
          { coding: [{ system: 'http://snomed.info/sct', code: '247472004', display: 'Wheal (finding)' }] },
        ],
        severity: 'moderate',
      },
    ],
  };

  it('names every reaction once, and keeps them all coded while the text is unchanged', () => {
    expect(reactionText(peanuts)).toBe('Wheal (finding), Eruption of skin (disorder)');
    const draft = allergyDraftOf(peanuts);
    expect(draft.reaction).toBe('Wheal (finding), Eruption of skin (disorder)');
    expect(buildAllergy({ ...draft, clinicalStatus: 'inactive' }, patient, peanuts).reaction).toEqual(peanuts.reaction);
    expect(buildAllergy({ ...draft, reaction: 'Hives' }, patient, peanuts).reaction).toEqual([
      { manifestation: [{ text: 'Hives' }] },
    ]);
  });

  it('dates an allergy known only by when it was recorded as recorded, and writes one onset[x]', () => {
    expect(datedBy(peanuts)).toEqual({ kind: 'recorded', date: '2010-05-02T10:17:37-04:00' });
    const withPeriod = { ...peanuts, onsetPeriod: { start: '2009-01-01' } };
    expect(allergyDraftOf(withPeriod).onset).toBe('2009-01-01');
    const changed = buildAllergy({ ...allergyDraftOf(withPeriod), onset: '2008-05-05' }, patient, withPeriod);
    expect(changed.onsetDateTime).toBe('2008-05-05');
    expect('onsetPeriod' in changed).toBe(false);
    const cleared = buildAllergy({ ...allergyDraftOf(withPeriod), onset: '' }, patient, withPeriod);
    expect('onsetPeriod' in cleared || 'onsetDateTime' in cleared).toBe(false);
  });
});

describe('orders that point at a Medication without naming it', () => {
  const simvastatin = {
    resourceType: 'Medication' as const,
    id: 'med-simva',
    status: 'active' as const,
    code: {
      coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '316672', display: 'Simvistatin 10 MG' }],
      text: 'Simvistatin 10 MG',
    },
  };
  const order: MedicationRequest = {
    resourceType: 'MedicationRequest',
    id: 'm1',
    status: 'active',
    intent: 'order',
    medicationReference: { reference: 'Medication/med-simva' },
    subject: patient,
    authoredOn: '1977-07-30T21:51:36+00:00',
    requester: { reference: 'Practitioner/757b90c2-8b24-4043-a017-2669a5674c77' },
  };
  const names = referenceNamesOf([simvastatin]);

  it('is named by the included Medication, and unnamed without it', () => {
    expect(medicationNameOf(order, names)).toBe('Simvistatin 10 MG');
    expect(medicationNameOf(order)).toBe('');
    const contained: MedicationRequest = {
      ...order,
      contained: [{ ...simvastatin, id: 'med1' }],
      medicationReference: { reference: '#med1' },
    };
    expect(medicationNameOf(contained)).toBe('Simvistatin 10 MG');
  });

  it('keeps pointing at the Medication when only its status changes', () => {
    const draft = medicationDraftOf(order, names);
    expect(draft.medication).toBe('Simvistatin 10 MG');
    const built = buildMedicationRequest(
      { ...draft, status: 'stopped' },
      patient,
      { reference: 'Practitioner/alice' },
      order,
      undefined,
      names,
    );
    if (!('request' in built)) throw new Error('expected a request');
    expect(built.request.medicationReference).toEqual(order.medicationReference);
    expect('medicationCodeableConcept' in built.request).toBe(false);
  });

  it('lists orders being taken first, then newest first', () => {
    const stopped = { ...order, id: 'old', status: 'stopped' as const, authoredOn: '1978-01-01' };
    const onHold = { ...order, id: 'held', status: 'on-hold' as const, authoredOn: '1970-01-01' };
    const ordered = currentFirst(
      [stopped, order, onHold],
      (request) => ['active', 'on-hold', 'draft'].includes(request.status),
      (request) => request.authoredOn,
    );
    expect(ordered.map((request) => request.id)).toEqual(['m1', 'held', 'old']);
  });
});

describe('the header line about a patient who has died', () => {
  const today = new Date(2026, 10, 28);
  it('gives the age reached and the day of death, not the age they would be today', () => {
    expect(birthLine({ birthDate: '1915-07-03', deceasedDateTime: '1996-01-21T19:20:06+00:00' }, today)).toMatch(
      /^3 Jul 1915 · died 2[01] Jan 1996 \(80 y\)$/,
    );
    expect(birthLine({ birthDate: '1939-01-27', deceasedDateTime: '1999-08-05' }, today)).toBe(
      '27 Jan 1939 · died 5 Aug 1999 (60 y)',
    );
    expect(birthLine({ birthDate: '1939-01-27', deceasedBoolean: true }, today)).toBe('27 Jan 1939 · deceased');
    expect(birthLine({ birthDate: '1972-03-12' }, today)).toBe('12 Mar 1972 (54 y)');
    expect(birthLine({}, today)).toBe('Birth date not recorded');
    expect(birthLine({ deceasedDateTime: '1999-08-05' }, today)).toBe('Birth date not recorded · died 5 Aug 1999');
  });
});
