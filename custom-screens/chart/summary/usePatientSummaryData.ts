import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type {
  AllergyIntolerance,
  Appointment,
  Condition,
  Encounter,
  MedicationRequest,
  Observation,
  Resource,
} from '@medplum/fhirtypes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { localDay, summaryQueryKey, summarySearches, type SummaryPart } from './summaryQueries';

export interface SummaryList<T> {
  items: T[];
  loading: boolean;
  error?: Error;
}

export interface PatientSummaryData {
  allergies: SummaryList<AllergyIntolerance>;
  problems: SummaryList<Condition>;
  medications: SummaryList<MedicationRequest>;
  observations: SummaryList<Observation>;
  appointments: SummaryList<Appointment>;
  visits: SummaryList<Encounter>;
}

/**
 * The summary's six searches. They are all started in the same render, so the client's 100 ms
 * auto-batching window carries them (with the chart's other GETs) in one HTTP round trip.
 */
export function usePatientSummaryData(patientId: string): PatientSummaryData {
  const client = useFhirClient();
  const searches = useMemo(() => summarySearches(patientId, localDay()), [patientId]);
  const results = useQueries({
    queries: searches.map((search) => ({
      queryKey: [...summaryQueryKey(patientId, search.part), search.query],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        client.searchResources(search.resourceType, search.query, { signal }).then((list) => [...list] as Resource[]),
      retry: false,
    })),
  });
  const byPart = {} as Record<SummaryPart, SummaryList<Resource>>;
  searches.forEach((search, index) => {
    const result = results[index];
    byPart[search.part] = {
      items: result?.data ?? [],
      loading: result?.isPending ?? true,
      error: result?.error ?? undefined,
    };
  });
  return byPart as unknown as PatientSummaryData;
}
