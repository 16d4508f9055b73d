import type { Patient } from '@medplum/fhirtypes';
import type { CodedConcept } from './demoClinicalStories';
import { ageOn } from './demoPatientRecord';

/** An RxNorm drug the hypertension story may start, with the order's dosage. */
export interface Antihypertensive extends CodedConcept {
  dosage: string;
}

/** The ACE inhibitor the hypertension story starts; the medication history's patient's current order. */
export const LISINOPRIL: Antihypertensive = {
  code: '314076',
  display: 'lisinopril 10 MG Oral Tablet',
  dosage: '1 tablet by mouth once daily',
};

/** RxNorm 197361 (openFDA lists it for single-strength amlodipine besylate 5 mg tablets). */
export const AMLODIPINE: Antihypertensive = {
  code: '197361',
  display: 'amlodipine 5 MG Oral Tablet',
  dosage: '1 tablet by mouth once daily',
};

/** The ages at which the demo takes a woman to be able to become pregnant. */
export const CHILDBEARING_AGES = { from: 15, to: 49 } as const;

/**
 * The first antihypertensive for this patient: lisinopril, except for a woman who may become
 * pregnant, whom a clinician would not start on an ACE inhibitor (fetotoxic, and pregnancies are
 * often noticed late), so amlodipine. A woman of unknown age is given the choice that is safe
 * either way.
 */
export function antihypertensiveFor(patient: Patient, today: Date): Antihypertensive {
  if (patient.gender !== 'female') return LISINOPRIL;
  const age = ageOn(patient, today);
  if (age === undefined) return AMLODIPINE;
  return age >= CHILDBEARING_AGES.from && age <= CHILDBEARING_AGES.to ? AMLODIPINE : LISINOPRIL;
}
