import type { AllergyIntolerance, CodeableConcept, Coding, Condition, MedicationRequest } from '@medplum/fhirtypes';
import { CONCEPT_SUGGESTIONS_SHOWN } from '../../../../config/clinical/recordedConcepts';
import type { ChosenConcept } from './conceptText';

/** A code recorded in this clinic, offered for a typed name. */
export interface ConceptSuggestion {
  /** As recorded: system, code and (when it had one) display. */
  coding: Coding;
  /** The name shown and saved as the concept's text: the display, else the recorded concept's text. */
  label: string;
  /** How many of the searched entries carry it: the clinic's usual codes come first. */
  uses: number;
}

/** The concept a suggestion search reads from each of its resources. */
export function recordedConceptOf(
  resource: Condition | AllergyIntolerance | MedicationRequest,
): CodeableConcept | undefined {
  return resource.resourceType === 'MedicationRequest' ? resource.medicationCodeableConcept : resource.code;
}

export function suggestionKey(coding: Coding): string {
  return `${coding.system ?? ''}|${coding.code ?? ''}`;
}

function startsWithTyped(name: string | undefined, typed: string): boolean {
  return !!name && name.trim().toLowerCase().startsWith(typed);
}

/**
 * The distinct codes (by system and code) of the recorded concepts whose text or display starts
 * with what was typed — the server's `:text` match, repeated here because an answer for fewer
 * characters is shown while the next one loads — most used first, then by name.
 */
export function conceptSuggestions(
  concepts: readonly (CodeableConcept | undefined)[],
  typed: string,
  limit: number = CONCEPT_SUGGESTIONS_SHOWN,
): ConceptSuggestion[] {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return [];
  const byKey = new Map<string, ConceptSuggestion>();
  for (const concept of concepts) {
    if (!concept) continue;
    const textMatches = startsWithTyped(concept.text, wanted);
    for (const coding of concept.coding ?? []) {
      // A code without its system means nothing outside the record it came from.
      if (!coding.system || !coding.code) continue;
      if (!textMatches && !startsWithTyped(coding.display, wanted)) continue;
      const key = suggestionKey(coding);
      const seen = byKey.get(key);
      if (seen) {
        seen.uses++;
        continue;
      }
      const label = coding.display?.trim() || concept.text?.trim() || coding.code;
      const recorded: Coding = { system: coding.system, code: coding.code };
      if (coding.display?.trim()) recorded.display = coding.display.trim();
      byKey.set(key, { coding: recorded, label, uses: 1 });
    }
  }
  return [...byKey.values()].sort((a, b) => b.uses - a.uses || a.label.localeCompare(b.label)).slice(0, limit);
}

/** What choosing a suggestion saves: its one coding (system, code, display) and its name as text. */
export function chosenSuggestion(suggestion: ConceptSuggestion): ChosenConcept {
  return { concept: { coding: [{ ...suggestion.coding }], text: suggestion.label }, label: suggestion.label };
}
