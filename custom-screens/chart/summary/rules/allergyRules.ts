import type { AllergyIntolerance, Patient, Reference } from '@medplum/fhirtypes';
import { ALLERGY_CLINICAL_STATUS_SYSTEM } from '../../../../config/clinical/allergies';
import { formatCodeableConcept } from '../../../../data-provider/formatting';
import { chosenConceptOf, conceptToSave, type ChosenConcept } from './conceptText';
import type { FieldErrors } from './draftErrors';
import { isAfterDay, localDay } from '../../../../data-provider/rules';
import { onsetDayOf, onsetToSave, withoutOnset } from './onsetDates';

export interface AllergyDraft {
  allergen: string;
  /** The coded concept the name stands for (a chosen suggestion, or the edited allergy's own). */
  allergenConcept?: ChosenConcept;
  clinicalStatus: string;
  onset: string;
  /** What happens to the patient (reaction manifestation text). */
  reaction: string;
}

export const ALLERGEN_REQUIRED = 'Allergen is required';
export const ONSET_IN_FUTURE = 'The onset date cannot be in the future';

export function allergyDraftOf(allergy: AllergyIntolerance | undefined): AllergyDraft {
  return {
    allergen: allergy ? formatCodeableConcept(allergy.code) : '',
    allergenConcept: chosenConceptOf(allergy?.code),
    clinicalStatus: allergy?.clinicalStatus?.coding?.[0]?.code ?? 'active',
    onset: onsetDayOf(allergy),
    reaction: reactionText(allergy),
  };
}

/**
 * What happens to the patient: the manifestations of every reaction, each once (imported records
 * list a reaction per manifestation, coded; the form's own are one text).
 */
export function reactionText(allergy: AllergyIntolerance | undefined): string {
  const names = (allergy?.reaction ?? []).flatMap((reaction) => reaction.manifestation.map(formatCodeableConcept));
  return [...new Set(names.filter(Boolean))].join(', ');
}

/** `today` (yyyy-mm-dd) is the viewer's, injectable for tests. */
export function validateAllergy(draft: AllergyDraft, today: string = localDay()): FieldErrors<keyof AllergyDraft> {
  return {
    allergen: draft.allergen.trim() ? undefined : ALLERGEN_REQUIRED,
    onset: isAfterDay(draft.onset, today) ? ONSET_IN_FUTURE : undefined,
  };
}

export function buildAllergy(
  draft: AllergyDraft,
  patient: Reference<Patient>,
  existing?: AllergyIntolerance,
): AllergyIntolerance {
  const typed = draft.reaction.trim();
  const previousReaction = existing ? reactionText(existing) : undefined;
  // An unchanged reaction keeps its coded manifestations; a changed one is saved as the typed text.
  const reaction =
    typed === '' ? undefined : typed === previousReaction ? existing?.reaction : [{ manifestation: [{ text: typed }] }];
  const allergy: AllergyIntolerance = {
    ...(existing && withoutOnset(existing)),
    resourceType: 'AllergyIntolerance',
    patient: existing?.patient ?? patient,
    code: conceptToSave(draft.allergen, draft.allergenConcept),
    clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL_STATUS_SYSTEM, code: draft.clinicalStatus }] },
    ...onsetToSave(draft.onset, existing),
    reaction,
  };
  if (!allergy.reaction) delete allergy.reaction;
  return allergy;
}
