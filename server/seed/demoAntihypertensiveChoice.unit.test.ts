import type { Condition, Patient } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { AMLODIPINE, antihypertensiveFor, LISINOPRIL } from './demoAntihypertensiveChoice';
import {
  HYPERTENSION,
  HYPERTENSION_ON_AMLODIPINE,
  hypertensionStoryWith,
  isHypertensionStory,
} from './demoClinicalStories';
import { hypertensionStoryPatient } from './demoHypertensionHistory';
import { chooseStory } from './demoStoryChoice';

const today = new Date('2026-06-15T12:00:00Z');
const person = (gender: Patient['gender'], birthDate?: string, id = 'p'): Patient => ({
  resourceType: 'Patient',
  id,
  gender,
  ...(birthDate ? { birthDate } : {}),
});

describe('antihypertensiveFor', () => {
  it('starts a woman of 15 to 49 on amlodipine, not an ACE inhibitor', () => {
    expect(antihypertensiveFor(person('female', '2000-11-15'), today)).toBe(AMLODIPINE); // 25, Wendy
    expect(antihypertensiveFor(person('female', '2011-06-15'), today)).toBe(AMLODIPINE); // 15 today
    expect(antihypertensiveFor(person('female', '1976-06-16'), today)).toBe(AMLODIPINE); // 49, 50 tomorrow
  });

  it('starts everyone else on lisinopril', () => {
    expect(antihypertensiveFor(person('female', '1976-06-15'), today)).toBe(LISINOPRIL); // 50 today
    expect(antihypertensiveFor(person('female', '1969-08-23'), today)).toBe(LISINOPRIL); // 56
    expect(antihypertensiveFor(person('female', '2011-06-16'), today)).toBe(LISINOPRIL); // 14
    expect(antihypertensiveFor(person('male', '2000-11-15'), today)).toBe(LISINOPRIL);
    expect(antihypertensiveFor(person('other', '2000-11-15'), today)).toBe(LISINOPRIL);
    expect(antihypertensiveFor(person(undefined, '2000-11-15'), today)).toBe(LISINOPRIL);
  });

  it('takes a woman of unknown age as one who may become pregnant', () => {
    expect(antihypertensiveFor(person('female'), today)).toBe(AMLODIPINE);
  });

  it('uses the RxNorm codes of the drugs it names', () => {
    expect(LISINOPRIL).toMatchObject({ code: '314076', display: 'lisinopril 10 MG Oral Tablet' });
    expect(AMLODIPINE).toMatchObject({ code: '197361', display: 'amlodipine 5 MG Oral Tablet' });
  });
});

describe('the hypertension story told with each drug', () => {
  const words = (story: typeof HYPERTENSION) =>
    [story.carePlan.description, ...Object.values(story.messages), story.referral, story.lab.name].join('\n');

  it('names its own drug, and no other, wherever it names one', () => {
    expect(HYPERTENSION.medication).toBe(LISINOPRIL);
    expect(HYPERTENSION_ON_AMLODIPINE.medication).toBe(AMLODIPINE);
    expect(words(HYPERTENSION)).toMatch(/lisinopril/);
    expect(words(HYPERTENSION)).not.toMatch(/amlodipine/i);
    expect(words(HYPERTENSION_ON_AMLODIPINE)).toMatch(/amlodipine/);
    expect(words(HYPERTENSION_ON_AMLODIPINE)).not.toMatch(/lisinopril|potassium on/i);
  });

  it('is the same story otherwise: problem, test, device', () => {
    for (const story of [HYPERTENSION, HYPERTENSION_ON_AMLODIPINE]) {
      expect(isHypertensionStory(story)).toBe(true);
      expect(story.condition).toBe(HYPERTENSION.condition);
      expect(story.lab).toEqual(HYPERTENSION.lab);
      expect(story.device).toEqual(HYPERTENSION.device);
    }
    expect(hypertensionStoryWith(AMLODIPINE)).toBe(HYPERTENSION_ON_AMLODIPINE);
    expect(hypertensionStoryWith(LISINOPRIL)).toBe(HYPERTENSION);
  });

  it('is told with amlodipine to a woman of childbearing age whose chart the demo writes as hypertensive', () => {
    const record = (patient: Patient) => ({ patient, conditions: [], allergies: [], medications: [], carePlans: [] });
    const options = { today, writtenAsHypertensive: true };
    expect(chooseStory(record(person('female', '2000-11-15')), options)).toBe(HYPERTENSION_ON_AMLODIPINE);
    expect(chooseStory(record(person('male', '2000-11-15')), options)).toBe(HYPERTENSION);
  });
});

describe('hypertensionStoryPatient', () => {
  const hypertension = (subject: string, onset: string): Condition => ({
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ code: 'active' }] },
    code: { coding: [{ system: 'http://snomed.info/sct', code: '38341003' }] },
    subject: { reference: `Patient/${subject}` },
    onsetDateTime: onset,
  });

  it('does not tell the history that ends on lisinopril about a woman who may become pregnant', () => {
    const woman = person('female', '1990-01-01', 'woman');
    const man = person('male', '1980-01-01', 'man');
    const conditions = [hypertension('woman', '2005-01-01'), hypertension('man', '2010-01-01')];
    expect(hypertensionStoryPatient([woman, man], conditions, today)?.patient).toBe(man);
    const older = person('female', '1960-01-01', 'woman');
    expect(hypertensionStoryPatient([older, man], conditions, today)?.patient).toBe(older);
  });
});
