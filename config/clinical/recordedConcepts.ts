/**
 * Suggestions for the summary's problem, allergy and medication names, taken from the concepts this
 * clinic has already recorded (there is no SNOMED CT or RxNorm terminology on the server to search).
 */

/** Fewer typed characters match too much of the clinic's record to help. */
export const CONCEPT_SUGGESTION_MIN_LENGTH = 2;

/** Resources read per search; the same concept recorded on many of them counts once. */
export const CONCEPT_SUGGESTION_SEARCH_COUNT = 50;

/** Suggestions shown at once: the most used first. */
export const CONCEPT_SUGGESTIONS_SHOWN = 10;

export interface RecordedConceptSource {
  resourceType: 'Condition' | 'AllergyIntolerance' | 'MedicationRequest';
  /** The element returned by the search (`_elements`): only the concept is needed. */
  element: 'code' | 'medication';
  /** What the list says its suggestions come from: "Suggestions from problems recorded in this clinic". */
  recordedAs: string;
}

export const PROBLEM_CONCEPTS: RecordedConceptSource = {
  resourceType: 'Condition',
  element: 'code',
  recordedAs: 'problems',
};

export const ALLERGEN_CONCEPTS: RecordedConceptSource = {
  resourceType: 'AllergyIntolerance',
  element: 'code',
  recordedAs: 'allergies',
};

export const MEDICATION_CONCEPTS: RecordedConceptSource = {
  resourceType: 'MedicationRequest',
  element: 'medication',
  recordedAs: 'medications',
};
