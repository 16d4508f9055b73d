import type { MedicationRequest } from '@medplum/fhirtypes';
import { isHypertensionStory, type ClinicalStory } from './demoClinicalStories';
import type { PatientRecord } from './demoPatientRecord';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/**
 * RxNorm codes of the estrogen-containing contraceptives Synthea's contraceptive module prescribes
 * (the ones found in the shipped and shared records): Levora, Trinessa, Yaz, Seasonique, Natazia
 * (estradiol valerate), Enovid (mestranol). Names catch the others, which Synthea versions and other
 * sources spell differently.
 */
const COMBINED_CONTRACEPTIVE_CODES = ['748879', '751905', '748856', '749762', '978950', '235389'];

/**
 * Ingredient or brand names of combined hormonal contraception (pill, ring, patch): an estrogen
 * beside the progestin. Progestin-only methods (Camila, Errin, Jolivette, Depo-Provera, implant,
 * levonorgestrel IUS) are not matched: they are what the clinician would offer instead.
 */
const COMBINED_CONTRACEPTIVE_NAMES =
  /ethinyl ?estradiol|mestranol|estradiol valerate|estetrol|trinessa|levora|yaz\b|yasmin|seasonique|natazia|enovid|loestrin|nuvaring|annovera|xulane|ortho ?evra|twirla/i;

export type CombinedContraceptiveForm = 'pill' | 'vaginal ring' | 'patch';

export interface CombinedContraception {
  order: MedicationRequest;
  /** As the record names it ("Trinessa 28 Day Pack"). */
  name: string;
  form: CombinedContraceptiveForm;
}

function namesOf(order: MedicationRequest): string[] {
  const concept = order.medicationCodeableConcept;
  return [
    concept?.text,
    ...(concept?.coding ?? []).map((coding) => coding.display),
    order.medicationReference?.display,
  ].filter((name): name is string => Boolean(name));
}

function isCombinedContraceptive(order: MedicationRequest): boolean {
  const coded = (order.medicationCodeableConcept?.coding ?? []).some(
    (coding) => coding.system === RXNORM && COMBINED_CONTRACEPTIVE_CODES.includes(coding.code ?? ''),
  );
  return coded || namesOf(order).some((name) => COMBINED_CONTRACEPTIVE_NAMES.test(name));
}

function formOf(name: string): CombinedContraceptiveForm {
  if (/ring/i.test(name)) return 'vaginal ring';
  if (/patch|transdermal|xulane|evra|twirla/i.test(name)) return 'patch';
  return 'pill';
}

/** The record's active order of an estrogen-containing contraceptive, if it has one. */
export function activeCombinedContraceptionOf(record: PatientRecord): CombinedContraception | undefined {
  const order = record.medications.find((each) => each.status === 'active' && isCombinedContraceptive(each));
  if (!order) return undefined;
  const name = namesOf(order)[0] ?? 'combined hormonal contraceptive';
  return { order, name, form: formOf(name) };
}

/**
 * What Dr. Alice Carter notes when she starts blood pressure treatment for a patient on combined
 * hormonal contraception: estrogen with hypertension is UKMEC/WHO category 3 (controlled) to 4
 * (160/100 or above), and the method may itself raise blood pressure. The order is left as it is:
 * changing the method is the patient's choice, made with the clinician, not a silent stop.
 */
export function contraceptionReview(contraception: CombinedContraception): {
  task: string;
  carePlanNote: string;
} {
  const method = `combined ${contraception.form}`;
  return {
    task: `Review contraception: ${method} (${contraception.name}) with high blood pressure — offer a progestin-only or non-hormonal method`,
    carePlanNote:
      `Contraception to review at the next visit: the ${method} (${contraception.name}) contains estrogen, ` +
      'which can raise blood pressure and with hypertension adds to the risk of stroke and clots ' +
      '(UKMEC 3–4); offer a progestin-only or non-hormonal method.',
  };
}

/**
 * The contraception review of a patient whose story is their hypertension and whose record has an
 * active combined hormonal contraceptive; none for any other story (the hay fever of a woman on the
 * pill raises no question of it) or record.
 */
export function contraceptionReviewFor(
  record: PatientRecord,
  story: ClinicalStory,
): (ReturnType<typeof contraceptionReview> & { contraception: CombinedContraception }) | undefined {
  if (!isHypertensionStory(story)) return undefined;
  const contraception = activeCombinedContraceptionOf(record);
  return contraception ? { contraception, ...contraceptionReview(contraception) } : undefined;
}
