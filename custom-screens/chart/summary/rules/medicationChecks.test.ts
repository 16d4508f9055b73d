import { describe, expect, it } from 'vitest';
import type { AllergyIntolerance, MedicationRequest, Patient } from '@medplum/fhirtypes';
import { DRUG_CLASSES } from '../../../../config/clinical/drugClasses';
import {
  allergyMatch,
  allergyMessage,
  allergyWarnings,
  checksFor,
  duplicateMessage,
  duplicateOrders,
  isActiveAllergy,
  medicationNamesOf,
  wordsOf,
} from './medicationChecks';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

const wendy: Patient = { resourceType: 'Patient', id: 'w', name: [{ given: ['Wendy'], family: 'Littel' }] };

const order = (
  id: string,
  medication: MedicationRequest['medicationCodeableConcept'],
  extra: Partial<MedicationRequest> = {},
): MedicationRequest => ({
  resourceType: 'MedicationRequest',
  id,
  status: 'active',
  intent: 'order',
  subject: { reference: 'Patient/w' },
  medicationCodeableConcept: medication,
  authoredOn: '2026-11-03T11:00:00.000Z',
  ...extra,
});

const amlodipine = order('aml', {
  text: 'amlodipine 5 MG Oral Tablet',
  coding: [{ system: RXNORM, code: '197361', display: 'amlodipine 5 MG Oral Tablet' }],
});

const allergy = (text: string, extra: Partial<AllergyIntolerance> = {}): AllergyIntolerance => ({
  resourceType: 'AllergyIntolerance',
  id: text,
  patient: { reference: 'Patient/w' },
  code: { text },
  clinicalStatus: { coding: [{ code: 'active' }] },
  ...extra,
});

const penicillinAllergy = allergy('Allergy to penicillin', {
  code: {
    text: 'Allergy to penicillin',
    coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }],
  },
  reaction: [{ manifestation: [{ text: 'Hives' }] }],
});

const augmentin = order('new', {
  text: 'Amoxicillin 250 MG / Clavulanate 125 MG Oral Tablet',
  coding: [{ system: RXNORM, code: '562251', display: 'Amoxicillin 250 MG / Clavulanate 125 MG Oral Tablet' }],
});

describe('duplicateOrders', () => {
  it('finds an active order of the same RxNorm code, whatever its name', () => {
    const renamed = order('new', { text: 'Norvasc', coding: [{ system: RXNORM, code: '197361' }] });
    expect(duplicateOrders(renamed, [amlodipine])).toEqual([amlodipine]);
  });

  it('finds one of the same name typed as text, case, spacing and dose form aside', () => {
    expect(duplicateOrders(order('new', { text: 'Amlodipine 5 MG' }), [amlodipine])).toEqual([amlodipine]);
    expect(duplicateOrders(order('new', { text: '  AMLODIPINE  5 mg oral tablet ' }), [amlodipine])).toEqual([
      amlodipine,
    ]);
  });

  it('leaves out stopped orders, the order itself, other strengths and other drugs', () => {
    const stopped = { ...amlodipine, id: 'old', status: 'stopped' as const };
    expect(duplicateOrders(order('new', { text: 'Amlodipine 5 MG' }), [stopped])).toEqual([]);
    expect(duplicateOrders(amlodipine, [amlodipine])).toEqual([]);
    expect(duplicateOrders(order('new', { text: 'Amlodipine 10 MG' }), [amlodipine])).toEqual([]);
    expect(duplicateOrders(order('new', { text: 'Lisinopril 10 MG' }), [amlodipine])).toEqual([]);
    // The same name under another code still warns: a warning costs a click, a missed duplicate more.
    const otherCode = order('new', { text: 'amlodipine 5 MG Oral Tablet', coding: [{ system: RXNORM, code: '999' }] });
    expect(duplicateOrders(otherCode, [amlodipine]).map((o) => o.id)).toEqual(['aml']);
  });

  it('says whose order it is, what and when it was ordered', () => {
    expect(duplicateMessage(wendy, amlodipine)).toBe(
      'Wendy already has an active order for amlodipine 5 MG Oral Tablet (ordered 3 Nov 2026)',
    );
    expect(duplicateMessage({ resourceType: 'Patient' }, { ...amlodipine, authoredOn: undefined })).toBe(
      'The patient already has an active order for amlodipine 5 MG Oral Tablet',
    );
  });
});

describe('allergy check', () => {
  it('warns of amoxicillin/clavulanate (RxNorm 562251) for an allergy to penicillin: amoxicillin is a penicillin', () => {
    const [warning] = allergyWarnings(medicationNamesOf(augmentin), [penicillinAllergy]);
    expect(warning?.kind).toBe('class');
    expect(allergyMessage(warning!)).toBe(
      'Possible allergy: Allergy to penicillin (Hives) — amoxicillin is a penicillin',
    );
  });

  it('warns of free-text "penicillin" as the allergen itself', () => {
    const warning = allergyMatch(['penicillin'], penicillinAllergy);
    expect(warning).toMatchObject({ kind: 'substance', reason: 'the order names penicillin, the recorded allergen' });
  });

  it('knows each penicillin of the table, and an allergy named by a member warns of the others', () => {
    for (const drug of ['Ampicillin 500 MG', 'Piperacillin / Tazobactam', 'Nafcillin 1 G', 'Dicloxacillin 250 MG']) {
      expect(allergyMatch([drug], penicillinAllergy)?.kind, drug).toBe('class');
    }
    expect(allergyMatch(['Ampicillin 500 MG'], allergy('Amoxicillin'))?.reason).toBe('ampicillin is a penicillin');
    expect(allergyMatch(['Augmentin'], allergy('Penicillins'))?.reason).toBe('augmentin is a penicillin');
  });

  it('warns of a sulfonamide antibiotic for a sulfa allergy', () => {
    expect(allergyMatch(['Sulfamethoxazole 800 MG / Trimethoprim 160 MG'], allergy('Sulfa drug allergy'))?.reason).toBe(
      'sulfamethoxazole is a sulfonamide antibiotic',
    );
  });

  it('says a cephalosporin is a possible cross-reactivity for a penicillin allergy, not a certain one', () => {
    const warning = allergyMatch(['Cefalexin 500 MG Oral Capsule'], penicillinAllergy);
    expect(warning?.kind).toBe('cross-reactivity');
    expect(warning?.reason).toBe('cefalexin is a cephalosporin: possible cross-reactivity with penicillins');
  });

  it('does not warn of unrelated drugs, or for allergies no longer active, refuted or entered in error', () => {
    expect(allergyWarnings(['amlodipine 5 MG Oral Tablet'], [penicillinAllergy])).toEqual([]);
    expect(allergyWarnings(['Lisinopril 10 MG'], [allergy('Allergy to grass pollen')])).toEqual([]);
    expect(allergyWarnings(['Aspirin 81 MG'], [allergy('Allergy to mould')])).toEqual([]);
    const resolved = { ...penicillinAllergy, clinicalStatus: { coding: [{ code: 'resolved' }] } };
    const refuted = { ...penicillinAllergy, verificationStatus: { coding: [{ code: 'refuted' }] } };
    const wrong = { ...penicillinAllergy, verificationStatus: { coding: [{ code: 'entered-in-error' }] } };
    expect(allergyWarnings(medicationNamesOf(augmentin), [resolved, refuted, wrong])).toEqual([]);
    // No clinical status at all: taken as still holding.
    expect(isActiveAllergy({ ...penicillinAllergy, clinicalStatus: undefined })).toBe(true);
  });

  it('compares words, not letters: "Allergy to" and short words never match', () => {
    expect(wordsOf('Allergy to penicillins (finding)')).toEqual(['allergy', 'penicillin', 'finding']);
    expect(allergyMatch(['Allergy relief tablet'], allergy('Allergy to peanuts'))).toBeUndefined();
  });

  it('keeps the class table as data: every class has members and words', () => {
    for (const drugClass of DRUG_CLASSES) {
      expect(drugClass.members.length).toBeGreaterThan(3);
      expect(drugClass.classWords.length).toBeGreaterThan(0);
      for (const member of drugClass.members) expect(member).toMatch(/^[a-z]+$/);
    }
  });
});

describe('checksFor', () => {
  it('checks a new order: duplicates when active, allergies when it is or may soon be taken', () => {
    expect(checksFor(augmentin, undefined)).toEqual({ duplicates: true, allergies: true });
    expect(checksFor({ ...augmentin, status: 'on-hold' }, undefined)).toEqual({ duplicates: false, allergies: true });
    expect(checksFor({ ...augmentin, status: 'completed' }, undefined)).toEqual({
      duplicates: false,
      allergies: false,
    });
  });

  it('checks an edit only for what it changes', () => {
    expect(checksFor(amlodipine, amlodipine)).toEqual({ duplicates: false, allergies: false });
    expect(checksFor(amlodipine, { ...amlodipine, status: 'stopped' })).toEqual({ duplicates: true, allergies: true });
    const renamed = { ...amlodipine, medicationCodeableConcept: { text: 'Amoxicillin 500 MG' } };
    expect(checksFor(renamed, amlodipine)).toEqual({ duplicates: true, allergies: true });
  });
});
