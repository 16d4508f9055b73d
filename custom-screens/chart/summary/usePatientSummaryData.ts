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
  Task,
} from '@medplum/fhirtypes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { mayCountOpenTasks } from './rules/openTasks';
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
  /** Undefined when the caller may not search tasks (the header then shows no task line). */
  openTasks: SummaryList<Task> | undefined;
}

/**
 * The summary's searches. They are all started in the same render, so the client's 100 ms
 * auto-batching window carries them (with the chart's other GETs) in one HTTP round trip.
 */
export function usePatientSummaryData(patientId: string): PatientSummaryData {
  const client = useFhirClient();
  // Decided from the client's session, not the chart's context: the chart frame calls this hook
  // above its providers, and both calls must ask the same searches to share them.
  const openTasks = mayCountOpenTasks({
    policy: client.getAccessPolicy(),
    superAdmin: client.isSuperAdmin(),
    profileType: client.getProfile()?.resourceType,
  });
  const searches = useMemo(() => summarySearches(patientId, localDay(), { openTasks }), [patientId, openTasks]);
  const results = useQueries({
    queries: searches.map((search) => ({
      queryKey: [...summaryQueryKey(patientId, search.part), search.query],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        client.searchResources(search.resourceType, search.query, { signal }).then((list) => [...list] as Resource[]),
      retry: false,
    })),
  });
  const byPart: Partial<Record<SummaryPart, SummaryList<Resource>>> = {};
  searches.forEach((search, index) => {
    const result = results[index];
    byPart[search.part] = {
      items: result?.data ?? [],
      loading: result?.isPending ?? true,
      error: result?.error ?? undefined,
    };
  });
  return { openTasks: undefined, ...byPart } as unknown as PatientSummaryData;
}
