import type { Coding, Observation, Patient, Reference } from '@medplum/fhirtypes';
import { formatCodeableConcept } from '../../../../data-provider/formatting';
import {
  SOCIAL_HISTORY_CATEGORY,
  SOCIAL_HISTORY_STATUS,
  type CodedChoice,
} from '../../../../config/clinical/smokingStatus';

export const CHOICE_REQUIRED = 'Choose one';

/** The chosen answer, required (app-spec §5: sexual orientation and smoking status each require one choice). */
export function validateChoice(choices: readonly CodedChoice[], code: string): string | undefined {
  return choices.some((choice) => choice.code === code) ? undefined : CHOICE_REQUIRED;
}

/** A new social-history Observation (status final) answering `question` with the chosen code. */
export function buildSocialHistoryObservation(
  question: Coding,
  choices: readonly CodedChoice[],
  code: string,
  patient: Reference<Patient>,
  effective: string,
): Observation {
  const choice = choices.find((c) => c.code === code);
  if (!choice) throw new Error(CHOICE_REQUIRED);
  return {
    resourceType: 'Observation',
    status: SOCIAL_HISTORY_STATUS,
    category: [{ coding: [{ ...SOCIAL_HISTORY_CATEGORY }] }],
    code: { coding: [{ ...question }], text: question.display },
    subject: patient,
    effectiveDateTime: effective,
    valueCodeableConcept: { coding: [{ ...choice }], text: choice.display },
  };
}

/** The code of an Observation's answer, to preselect it when the clinician records a new one. */
export function answerCode(observation: Observation | undefined): string {
  return observation?.valueCodeableConcept?.coding?.[0]?.code ?? '';
}

/**
 * How the section names an Observation's answer: by the modal's own label when it is one of the
 * choices, so the sidebar and the dialog say the same (imported records call 8517006 "Former
 * smoker", the modal and app-spec §9 "Ex-smoker"); else by the record's own text.
 */
export function answerLabel(choices: readonly CodedChoice[], observation: Observation | undefined): string {
  const concept = observation?.valueCodeableConcept;
  for (const coding of concept?.coding ?? []) {
    const choice = choices.find((c) => c.system === coding.system && c.code === coding.code);
    if (choice) return choice.display;
  }
  return formatCodeableConcept(concept);
}
