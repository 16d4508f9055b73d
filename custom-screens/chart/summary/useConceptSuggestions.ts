import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AllergyIntolerance, CodeableConcept, Condition, MedicationRequest } from '@medplum/fhirtypes';
import {
  CONCEPT_SUGGESTION_MIN_LENGTH,
  CONCEPT_SUGGESTION_SEARCH_COUNT,
  type RecordedConceptSource,
} from '../../../config/clinical/recordedConcepts';
import { canReadResourceType } from '../../../data-provider/access';
import { useDebounced } from '../../../src/datatypes/useValueSetOptions';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { conceptSuggestions, recordedConceptOf, type ConceptSuggestion } from './rules/conceptSuggestions';

export interface ConceptSuggestions {
  options: ConceptSuggestion[];
  /** The last search failed: the field says so quietly and typing goes on as free text. */
  unavailable: boolean;
}

/**
 * Codes this clinic has recorded whose name starts with the typed text, searched (debounced) with
 * the token `:text` modifier while the clinician types. A caller whose policy does not let them
 * search the type gets none and asks nothing.
 */
export function useConceptSuggestions(
  source: RecordedConceptSource,
  text: string,
  typing: boolean,
): ConceptSuggestions {
  const client = useFhirClient();
  const allowed = client.isSuperAdmin() || canReadResourceType(client.getAccessPolicy(), source.resourceType);
  const typed = useDebounced(text.trim());
  const longEnough = typed.length >= CONCEPT_SUGGESTION_MIN_LENGTH;
  const search = useQuery<(CodeableConcept | undefined)[], Error>({
    queryKey: ['chart-summary-concepts', source.resourceType, typed.toLowerCase()],
    queryFn: async ({ signal }) => {
      const found = await client.searchResources(
        source.resourceType,
        { 'code:text': typed, _elements: source.element, _count: String(CONCEPT_SUGGESTION_SEARCH_COUNT) },
        { signal },
      );
      return found.map((resource) => recordedConceptOf(resource as Condition | AllergyIntolerance | MedicationRequest));
    },
    enabled: allowed && typing && longEnough,
    // While the next characters' answer loads, the last one (narrowed to the new text) stays shown.
    placeholderData: keepPreviousData,
    retry: false,
  });
  const current = text.trim();
  const options = useMemo(
    () =>
      allowed && typing && current.length >= CONCEPT_SUGGESTION_MIN_LENGTH
        ? conceptSuggestions(search.data ?? [], current)
        : [],
    [allowed, typing, current, search.data],
  );
  return { options, unavailable: allowed && longEnough && search.isError };
}
