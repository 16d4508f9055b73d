import type { AllergyIntolerance, Patient, Reference } from '@medplum/fhirtypes';
import { ALLERGY_CLINICAL_STATUS_SYSTEM } from '../../../../config/clinical/allergies';
import { formatCodeableConcept } from '../../../../data-provider/formatting';
import { chosenConceptOf, conceptToSave, type ChosenConcept } from './conceptText';
import type { FieldErrors } from './draftErrors';

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

export function allergyDraftOf(allergy: AllergyIntolerance | undefined): AllergyDraft {
  return {
    allergen: allergy ? formatCodeableConcept(allergy.code) : '',
    allergenConcept: chosenConceptOf(allergy?.code),
    clinicalStatus: allergy?.clinicalStatus?.coding?.[0]?.code ?? 'active',
    onset: allergy?.onsetDateTime?.slice(0, 10) ?? '',
    reaction: allergy?.reaction?.[0]?.manifestation?.map(formatCodeableConcept).join(', ') ?? '',
  };
}

export function validateAllergy(draft: AllergyDraft): FieldErrors<keyof AllergyDraft> {
  return { allergen: draft.allergen.trim() ? undefined : ALLERGEN_REQUIRED };
}

export function buildAllergy(
  draft: AllergyDraft,
  patient: Reference<Patient>,
  existing?: AllergyIntolerance,
): AllergyIntolerance {
  const reactionText = draft.reaction.trim();
  const previousReaction = existing ? allergyDraftOf(existing).reaction : undefined;
  // An unchanged reaction keeps its coded manifestations; a changed one is saved as the typed text.
  const reaction =
    reactionText === ''
      ? undefined
      : reactionText === previousReaction
        ? existing?.reaction
        : [{ manifestation: [{ text: reactionText }] }];
  const allergy: AllergyIntolerance = {
    ...existing,
    resourceType: 'AllergyIntolerance',
    patient: existing?.patient ?? patient,
    code: conceptToSave(draft.allergen, draft.allergenConcept),
    clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL_STATUS_SYSTEM, code: draft.clinicalStatus }] },
    onsetDateTime: draft.onset || undefined,
    reaction,
  };
  if (!allergy.onsetDateTime) delete allergy.onsetDateTime;
  if (!allergy.reaction) delete allergy.reaction;
  return allergy;
}
