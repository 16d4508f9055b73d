import { useMemo } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
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
import { normalizeErrorString } from '../../../data-provider/outcomes';
import {
  couldNotLoadMessage,
  latestObservationsBatch,
  latestObservationsFrom,
  missingObservationItems,
} from './rules/latestObservations';
import { mayCountOpenTasks } from './rules/openTasks';
import { localDay, SUMMARY_COUNT, summaryQueryKey, summarySearches, type SummaryPart } from './summaryQueries';

export interface SummaryList<T> {
  items: T[];
  loading: boolean;
  error?: Error;
  /** Names of the resources the items point at, as the search included them (a Medication). */
  names: ReferenceNames;
}

/** An item the page of Observations did not hold, asked for on its own (`latestObservations.ts`). */
export interface ItemLookup {
  loading: boolean;
  /** Its query failed: whether the patient has one is not known. */
  error?: Error;
}

export interface ObservationSummaryList extends SummaryList<Observation> {
  /**
   * The summary items (smoking status, each vital…) the page did not hold, by item id, while their
   * own queries load or once they failed. Items found that way are among `items`; an item neither
   * in `items` nor here is one the server says the patient has none of.
   */
  lookups: Readonly<Record<string, ItemLookup>>;
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
  observations: ObservationSummaryList | undefined;
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
  const observations = useLatestObservations(patientId, byPart.observations as SummaryList<Observation> | undefined);
  return { ...byPart, observations } as unknown as PatientSummaryData;
}

/**
 * The page of Observations, completed: each summary item it does not hold (when it may not be the
 * whole record) is asked for on its own, newest first, one each — all in one `batch` request once
 * the page has arrived (a second round trip, for patients with more than 100 Observations only).
 */
function useLatestObservations(
  patientId: string,
  page: SummaryList<Observation> | undefined,
): ObservationSummaryList | undefined {
  const client = useFhirClient();
  const pageItems = page && !page.loading && !page.error ? page.items : undefined;
  const missing = useMemo(() => (pageItems ? missingObservationItems(pageItems, SUMMARY_COUNT) : []), [pageItems]);
  const lookup = useQuery({
    // Under the page's key: a save that reloads the page reloads these too.
    queryKey: [...summaryQueryKey(patientId, 'observations'), 'latest', missing.map((item) => item.id)],
    enabled: missing.length > 0,
    queryFn: ({ signal }) =>
      client
        .executeBatch(latestObservationsBatch(patientId, missing), { signal })
        .then((response) => latestObservationsFrom(response, missing)),
    retry: false,
  });
  const present = page !== undefined;
  const { items = NO_OBSERVATIONS, loading = true, error, names = NO_REFERENCE_NAMES } = page ?? {};
  const { data: answers, error: batchError } = lookup;
  return useMemo(() => {
    if (!present) return undefined;
    const lookups: Record<string, ItemLookup> = {};
    const found: Observation[] = [];
    const known = new Set(items.map((observation) => observation.id));
    missing.forEach((item, index) => {
      const answer = answers?.[index];
      if (answer?.found) {
        for (const observation of answer.found) {
          if (known.has(observation.id)) continue;
          known.add(observation.id);
          found.push(observation);
        }
      } else if (answer?.failed !== undefined || batchError) {
        const reason = answer?.failed ?? normalizeErrorString(batchError);
        lookups[item.id] = { loading: false, error: new Error(couldNotLoadMessage(item, reason)) };
      } else {
        lookups[item.id] = { loading: true };
      }
    });
    return { items: found.length ? [...items, ...found] : items, loading, error, names, lookups };
  }, [present, items, loading, error, names, missing, answers, batchError]);
}

const NO_OBSERVATIONS: Observation[] = [];
