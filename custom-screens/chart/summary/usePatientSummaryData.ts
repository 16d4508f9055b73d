import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type {
  AllergyIntolerance,
  Appointment,
  Bundle,
  Condition,
  Encounter,
  MedicationRequest,
  Observation,
  Patient,
  Resource,
  Task,
} from '@medplum/fhirtypes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { useChartAccess } from '../useChartAccess';
import { NO_REFERENCE_NAMES, referenceNamesOf, type ReferenceNames } from '../referenceNames';
import { mayCountOpenTasks } from './rules/openTasks';
import { localDay, summaryQueryKey, summarySearches, type SummaryPart } from './summaryQueries';

export interface SummaryList<T> {
  items: T[];
  loading: boolean;
  error?: Error;
  /** Names of the resources the items point at, as the search included them (a Medication). */
  names: ReferenceNames;
}

interface SummaryPage {
  items: Resource[];
  names: ReferenceNames;
}

/** The matches of a search, and the names of what it included. */
export function summaryPage(list: Resource[] & { bundle?: Bundle }): SummaryPage {
  const included = (list.bundle?.entry ?? [])
    .filter((entry) => entry.search?.mode === 'include' && entry.resource)
    .map((entry) => entry.resource as Resource);
  return { items: [...list], names: included.length ? referenceNamesOf(included) : NO_REFERENCE_NAMES };
}

/**
 * Each part is undefined when the caller's access policy does not let them search its type: it is
 * not asked for, and the summary leaves out what it would show.
 */
export interface PatientSummaryData {
  allergies: SummaryList<AllergyIntolerance> | undefined;
  problems: SummaryList<Condition> | undefined;
  medications: SummaryList<MedicationRequest> | undefined;
  observations: SummaryList<Observation> | undefined;
  appointments: SummaryList<Appointment> | undefined;
  visits: SummaryList<Encounter> | undefined;
  /** The patient as its general practitioner was looked up, and the names of what it points at. */
  generalPractitioner: SummaryList<Patient>;
  /** Undefined also for a patient reading their own chart (the header then shows no task line). */
  openTasks: SummaryList<Task> | undefined;
}

/**
 * The summary's searches. They are all started in the same render, so the client's 100 ms
 * auto-batching window carries them (with the chart's other GETs) in one HTTP round trip.
 */
export function usePatientSummaryData(patientId: string): PatientSummaryData {
  const client = useFhirClient();
  const access = useChartAccess();
  // Decided from the client's session, not the chart's context: the chart frame calls this hook
  // above its providers, and both calls must ask the same searches to share them.
  const openTasks = mayCountOpenTasks({
    policy: client.getAccessPolicy(),
    superAdmin: client.isSuperAdmin(),
    profileType: client.getProfile()?.resourceType,
  });
  // Always the general practitioner's look-up: it searches the Patient, whom a chart reads anyway.
  const searches = useMemo(
    () =>
      summarySearches(patientId, localDay(), { openTasks }).filter(
        (search) => search.part === 'generalPractitioner' || access.canSearch(search.resourceType),
      ),
    [patientId, openTasks, access],
  );
  const results = useQueries({
    queries: searches.map((search) => ({
      queryKey: [...summaryQueryKey(patientId, search.part), search.query],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        client.searchResources(search.resourceType, search.query, { signal }).then(summaryPage),
      retry: false,
    })),
  });
  const byPart: Partial<Record<SummaryPart, SummaryList<Resource>>> = {};
  searches.forEach((search, index) => {
    const result = results[index];
    byPart[search.part] = {
      items: result?.data?.items ?? [],
      names: result?.data?.names ?? NO_REFERENCE_NAMES,
      loading: result?.isPending ?? true,
      error: result?.error ?? undefined,
    };
  });
  return byPart as unknown as PatientSummaryData;
}
