import type { AllergyIntolerance, MedicationRequest, Patient } from '@medplum/fhirtypes';
import {
  ALLERGY_NAME_NOISE,
  DRUG_CLASSES,
  POSSIBLE_CROSS_REACTIVITY,
  SHORTEST_COMPARED_WORD,
  type DrugClass,
} from '../../../../config/clinical/drugClasses';
import { CURRENT_MEDICATION_STATUSES } from '../../../../config/clinical/medicationStatus';
import { formatCodeableConcept, readableDate } from '../../../../data-provider/formatting';
import { medicationNameOf } from '../../medicationName';
import { NO_REFERENCE_NAMES, type ReferenceNames } from '../../referenceNames';
import { reactionText } from './allergyRules';
import { medicationKeysOf } from './medicationIdentity';

/**
 * The checks the Add medication modal runs before it saves an order: another active order of the
 * same medication, and an active allergy the drug may set off. A simple name and class check
 * (`config/clinical/drugClasses.ts` says what it does not know), not a drug database: each warning
 * names what matched, and the clinician may add the order anyway.
 */

// ---------------------------------------------------------------------------------------------
// Which checks an order needs

/** Whether the saved order should be checked at all: only what is new about it. */
export function checksFor(
  order: MedicationRequest,
  existing: MedicationRequest | undefined,
): { duplicates: boolean; allergies: boolean } {
  const changedDrug =
    !existing ||
    JSON.stringify([existing.medicationCodeableConcept, existing.medicationReference]) !==
      JSON.stringify([order.medicationCodeableConcept, order.medicationReference]);
  const current = (status: string | undefined) => CURRENT_MEDICATION_STATUSES.includes(status ?? '');
  return {
    // Another active order matters for an order that is (now) active.
    duplicates: order.status === 'active' && (changedDrug || existing?.status !== 'active'),
    // An allergy matters for an order the patient is or may soon be taking, not a past one recorded.
    allergies: current(order.status) && (changedDrug || !current(existing?.status)),
  };
}

// ---------------------------------------------------------------------------------------------
// Duplicate orders

/**
 * Words that say the form of a product, not which medication it is: "amlodipine 5 MG Oral Tablet"
 * and a typed "Amlodipine 5 MG" are one order twice.
 */
const DOSE_FORM_WORDS: ReadonlySet<string> = new Set([
  'oral',
  'tablet',
  'tablets',
  'tab',
  'capsule',
  'capsules',
  'cap',
  'chewable',
  'film',
  'coated',
]);

function productName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word && !DOSE_FORM_WORDS.has(word))
    .join(' ');
}

/**
 * The patient's other active orders of the medication `order` is of: the same code, or (text
 * orders) the same name, case, spacing and dose-form words aside (`medicationKeysOf`). Another
 * strength or another product of the same ingredient is not found (it may be meant).
 */
export function duplicateOrders(
  order: MedicationRequest,
  orders: readonly MedicationRequest[],
  names: ReferenceNames = NO_REFERENCE_NAMES,
): MedicationRequest[] {
  const others = orders.filter((other) => other.status === 'active' && (!order.id || other.id !== order.id));
  const keys = medicationKeysOf([...others, order], names);
  const key = keys[others.length];
  const product = productName(medicationNameOf(order, names));
  return others.filter(
    (other, index) =>
      (key !== undefined && keys[index] === key) ||
      (product !== '' && productName(medicationNameOf(other, names)) === product),
  );
}

/** "Wendy", or "The patient" for a patient without a given name. */
export function patientCallName(patient: Patient): string {
  return patient.name?.[0]?.given?.[0]?.trim() || 'The patient';
}

/** "Wendy already has an active order for amlodipine 5 MG Oral Tablet (ordered 3 Nov 2026)". */
export function duplicateMessage(
  patient: Patient,
  other: MedicationRequest,
  names: ReferenceNames = NO_REFERENCE_NAMES,
): string {
  const ordered = readableDate(other.authoredOn);
  const name = medicationNameOf(other, names) || 'this medication';
  return `${patientCallName(patient)} already has an active order for ${name}${ordered ? ` (ordered ${ordered})` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Allergies

export interface AllergyWarning {
  allergy: AllergyIntolerance;
  /** 'substance': the order names the allergen; 'class': a drug of the allergen's class; 'cross-reactivity': of a related class. */
  kind: 'substance' | 'class' | 'cross-reactivity';
  /** Why it matched, in words: "amoxicillin is a penicillin". */
  reason: string;
}

/** An allergy that still holds: not inactive or resolved, not refuted or entered in error. */
export function isActiveAllergy(allergy: AllergyIntolerance): boolean {
  const clinical = (allergy.clinicalStatus?.coding ?? []).map((coding) => coding.code);
  const verification = (allergy.verificationStatus?.coding ?? []).map((coding) => coding.code);
  if (clinical.some((code) => code === 'inactive' || code === 'resolved')) return false;
  return !verification.some((code) => code === 'refuted' || code === 'entered-in-error');
}

/** Lower-case words of a name, accents and plurals aside; short ones (to, mg, iv) left out. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z]+/)
    .map((word) => (word.length > SHORTEST_COMPARED_WORD && /[^su]s$/.test(word) ? word.slice(0, -1) : word))
    .filter((word) => word.length >= SHORTEST_COMPARED_WORD);
}

/** Every name an order goes by: its text, its codings' displays, a referenced Medication's name. */
export function medicationNamesOf(order: MedicationRequest, names: ReferenceNames = NO_REFERENCE_NAMES): string[] {
  const concept = order.medicationCodeableConcept;
  return [medicationNameOf(order, names), concept?.text ?? '', ...(concept?.coding ?? []).map((c) => c.display ?? '')]
    .map((name) => name.trim())
    .filter(Boolean);
}

function allergyNames(allergy: AllergyIntolerance): string[] {
  const code = allergy.code;
  return [code?.text ?? '', ...(code?.coding ?? []).map((coding) => coding.display ?? '')].filter(Boolean);
}

const noise: ReadonlySet<string> = new Set(ALLERGY_NAME_NOISE.flatMap(wordsOf));

/**
 * Why an order may set off an allergy, or undefined. Strongest first: the order names the allergen
 * itself; a drug of a class the allergy names or a member of which it names (an allergy to
 * amoxicillin warns of ampicillin); a drug of a class with possible cross-reactivity.
 */
export function allergyMatch(
  drugNames: readonly string[],
  allergy: AllergyIntolerance,
  classes: readonly DrugClass[] = DRUG_CLASSES,
  crossReactivity: readonly { allergyClass: string; drugClass: string }[] = POSSIBLE_CROSS_REACTIVITY,
): AllergyWarning | undefined {
  const drugWords = [...new Set(drugNames.flatMap(wordsOf))];
  const allergyWords = new Set(
    allergyNames(allergy)
      .flatMap(wordsOf)
      .filter((word) => !noise.has(word)),
  );
  const same = drugWords.find((word) => allergyWords.has(word));
  if (same) return { allergy, kind: 'substance', reason: `the order names ${same}, the recorded allergen` };
  const named = (drugClass: DrugClass) =>
    [...drugClass.classWords, ...drugClass.members].some((word) => allergyWords.has(wordsOf(word)[0] ?? word));
  const memberIn = (drugClass: DrugClass) => drugWords.find((word) => drugClass.members.includes(word));
  for (const drugClass of classes) {
    const member = named(drugClass) ? memberIn(drugClass) : undefined;
    if (member) return { allergy, kind: 'class', reason: `${member} is ${drugClass.memberOf}` };
  }
  for (const pair of crossReactivity) {
    const allergyClass = classes.find((c) => c.id === pair.allergyClass);
    const drugClass = classes.find((c) => c.id === pair.drugClass);
    if (!allergyClass || !drugClass || !named(allergyClass)) continue;
    const member = memberIn(drugClass);
    if (member) {
      return {
        allergy,
        kind: 'cross-reactivity',
        reason: `${member} is ${drugClass.memberOf}: possible cross-reactivity with ${allergyClass.plural}`,
      };
    }
  }
  return undefined;
}

/** The active allergies an order may set off, each once. */
export function allergyWarnings(
  drugNames: readonly string[],
  allergies: readonly AllergyIntolerance[],
): AllergyWarning[] {
  return allergies
    .filter(isActiveAllergy)
    .map((allergy) => allergyMatch(drugNames, allergy))
    .filter((warning): warning is AllergyWarning => warning !== undefined);
}

/** "Possible allergy: Allergy to penicillin (Hives) — amoxicillin is a penicillin". */
export function allergyMessage(warning: AllergyWarning): string {
  const name = formatCodeableConcept(warning.allergy.code) || 'an allergy';
  const reaction = reactionText(warning.allergy);
  return `Possible allergy: ${name}${reaction ? ` (${reaction})` : ''} — ${warning.reason}`;
}
