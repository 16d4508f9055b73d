import { useQuery } from '@tanstack/react-query';
import type { Patient } from '@medplum/fhirtypes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { NO_REFERENCE_NAMES } from '../referenceNames';
import { generalPractitionerOf, lookupFollowed, providerLine, PROVIDER_NOT_AVAILABLE } from './rules/providerLine';
import { generalPractitionerSearch, summaryQueryKey } from './summaryQueries';
import { summaryPage, type SummaryList } from './usePatientSummaryData';

/**
 * The header's provider line (undefined while it is looked up), named from the summary's batched
 * look-up. A provider that look-up did not follow — the patient was given another since — is
 * looked up on its own, rather than called unavailable.
 */
export function useProviderLine(patient: Patient, lookup: SummaryList<Patient>): string | undefined {
  const client = useFhirClient();
  const fromSummary = providerLine(patient, lookup);
  const lookedUp = lookup.items[0];
  // No patient found at all: the search cannot see it, and would not the second time either.
  const lookAgain = fromSummary === PROVIDER_NOT_AVAILABLE && !!lookedUp && !lookupFollowed(patient, lookedUp);
  const search = generalPractitionerSearch(patient.id as string);
  const again = useQuery({
    queryKey: [...summaryQueryKey(patient.id as string, search.part), search.query, generalPractitionerOf(patient)],
    queryFn: ({ signal }) =>
      // Not the client's cached answer: that is the summary's, from before the patient changed.
      client.searchResources(search.resourceType, search.query, { signal, cache: 'no-cache' }).then(summaryPage),
    enabled: lookAgain,
    retry: false,
  });
  if (!lookAgain) return fromSummary;
  return providerLine(patient, { loading: again.isPending, names: again.data?.names ?? NO_REFERENCE_NAMES });
}
