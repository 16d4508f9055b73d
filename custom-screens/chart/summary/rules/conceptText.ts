import type { CodeableConcept } from '@medplum/fhirtypes';
import { formatCodeableConcept } from '../../../../data-provider/formatting';

/**
 * The concept a name field stands for while it reads `label`: a suggestion the clinician chose, or
 * the edited entry's own concept (with all its codes).
 */
export interface ChosenConcept {
  concept: CodeableConcept;
  label: string;
}

/** The edited entry's concept as the field shows it; undefined for a new entry. */
export function chosenConceptOf(concept: CodeableConcept | undefined): ChosenConcept | undefined {
  return concept ? { concept, label: formatCodeableConcept(concept) } : undefined;
}

/** Whether the typed name still is the chosen concept's (surrounding spaces aside). */
export function isChosenText(text: string, chosen: ChosenConcept | undefined): chosen is ChosenConcept {
  return chosen !== undefined && chosen.label.trim() === text.trim();
}

/**
 * The concept to save for a typed name: the chosen concept (with its codes) while the text is the
 * one it was shown as, else a text-only concept, since a renamed entry no longer means the old code.
 */
export function conceptToSave(text: string, chosen: ChosenConcept | undefined): CodeableConcept {
  if (isChosenText(text, chosen)) return chosen.concept;
  return { text: text.trim() };
}
