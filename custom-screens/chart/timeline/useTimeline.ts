import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { TIMELINE_SEARCHES, timelineSearchQuery } from './timelineQueries';
import { timelineItems, type TimelineItem } from './timelineOrder';

export interface TimelineData {
  items: TimelineItem[];
  loading: boolean;
  /** Types the user's access does not include: left out, and the timeline says so. */
  notAllowed: string[];
  /** Other failures, one message per type. */
  errors: string[];
}

function resourcesOf(bundle: Bundle | undefined): Resource[] {
  return (bundle?.entry ?? [])
    .filter((entry) => entry.search?.mode !== 'include')
    .map((entry) => entry.resource as Resource)
    .filter(Boolean);
}

const denied = (error: Error) =>
  error instanceof OperationOutcomeError && (error.status === 403 || error.outcome.issue?.[0]?.code === 'forbidden');

/**
 * The Patient's history and the seven searches of the timeline (app-spec §7). All eight start in
 * the same render as the chart's patient read, so the client's auto-batching sends them together.
 */
export function useTimeline(patientId: string): TimelineData {
  const client = useFhirClient();
  const results = useQueries({
    queries: [
      {
        // Keyed like the console's history, so a save of the patient refreshes it.
        queryKey: ['hearth-history', 'Patient', patientId, 'timeline'],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          client.readHistory('Patient', patientId, { signal, cache: 'no-cache' }) as Promise<Bundle>,
        retry: false,
      },
      ...TIMELINE_SEARCHES.map(({ resourceType, parameter }) => ({
        queryKey: ['hearth-search', resourceType, 'timeline', patientId],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          client.search(resourceType, timelineSearchQuery(parameter, patientId), {
            signal,
            cache: 'no-cache',
          }) as Promise<Bundle>,
        retry: false,
      })),
    ],
  });
  const stamp = results.map((result) => `${result.status}:${result.dataUpdatedAt}:${result.errorUpdatedAt}`).join(',');
  return useMemo(() => {
    const [history, ...searches] = results;
    const notAllowed: string[] = [];
    const errors: string[] = [];
    const others: Resource[] = [];
    searches.forEach((result, index) => {
      const type = TIMELINE_SEARCHES[index].resourceType;
      if (result.error) {
        if (denied(result.error)) notAllowed.push(type);
        else errors.push(`${type}: ${result.error.message}`);
      } else {
        others.push(...resourcesOf(result.data));
      }
    });
    if (history.error) errors.push(`Patient history: ${history.error.message}`);
    return {
      items: timelineItems(resourcesOf(history.data), others),
      loading: results.some((result) => result.isPending),
      notAllowed,
      errors,
    };
    // The results array is new on every render; its data stamps say when anything changed.
  }, [stamp]);
}
