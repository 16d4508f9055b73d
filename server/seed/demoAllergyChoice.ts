import type { CodeableConcept } from '@medplum/fhirtypes';
import type { CodedConcept } from './demoClinicalStories';
import { recordKeyOf, type PatientRecord } from './demoPatientRecord';

export interface DemoAllergy extends CodedConcept {
  reaction: string;
  /** Drugs of the allergen's class: an order of one on the record says the patient takes it. */
  toleratedIf?: RegExp;
}

/** SNOMED CT allergy findings, with the reaction the demo records for each. */
export const DEMO_ALLERGIES: readonly DemoAllergy[] = [
  {
    code: '91936005',
    display: 'Allergy to penicillin',
    reaction: 'Hives',
    // Amoxicillin (Synthea's amoxicillin/clavulanate too) and the other penicillins.
    toleratedIf: /penicillin|amoxicillin|ampicillin|dicloxacillin|nafcillin|oxacillin|piperacillin/i,
  },
  { code: '91935009', display: 'Allergy to peanuts', reaction: 'Swelling of lips' },
  { code: '300913006', display: 'Shellfish allergy', reaction: 'Nausea and vomiting' },
];

/** SNOMED CT "No known allergy": a record that says so gets none. */
const NO_KNOWN_ALLERGY = '716186003';

const codesOf = (concept: CodeableConcept | undefined) => (concept?.coding ?? []).map((coding) => coding.code);
const namesOf = (concept: CodeableConcept | undefined) => [
  concept?.text ?? '',
  ...(concept?.coding ?? []).map((coding) => coding.display ?? ''),
];

/** FNV-1a: a small stable hash, the same for the same text on every run and machine. */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const char of text) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The allergy the demo adds to a patient: varied across patients but always the same for the same
 * record (by a hash of its Synthea identifier, not of the random id or the patient's position), and
 * never one the record contradicts: not one it already lists, not penicillin for a patient who was
 * given amoxicillin, none for a record that says "no known allergy".
 */
export function allergyFor(record: PatientRecord): DemoAllergy | undefined {
  const recorded = record.allergies.flatMap((allergy) => codesOf(allergy.code));
  if (recorded.includes(NO_KNOWN_ALLERGY)) return undefined;
  const drugNames = record.medications.flatMap((order) => namesOf(order.medicationCodeableConcept));
  const possible = DEMO_ALLERGIES.filter(
    (allergy) =>
      !recorded.includes(allergy.code) && !drugNames.some((name) => allergy.toleratedIf?.test(name) ?? false),
  );
  if (possible.length === 0) return undefined;
  return possible[stableHash(recordKeyOf(record.patient)) % possible.length];
}
