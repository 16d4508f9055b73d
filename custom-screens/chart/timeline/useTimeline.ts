import { useMemo } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { isAccessDenied } from '../accessDenied';
import { useChartAccess } from '../useChartAccess';
import { timelinePlan, timelineSearchQuery } from './timelineQueries';
import { timelineItems, type TimelineItem } from './timelineOrder';

export interface TimelineData {
  items: TimelineItem[];
  loading: boolean;
  /** What the user's access does not include (as a reader calls them): left out, and the timeline says so. */
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

/**
 * The Patient's history and the timeline's searches (app-spec §7): the seven the viewer gets
 * (timelinePlan), less those their access policy would refuse. All start in the same render as
 * the chart's patient read, so the client's auto-batching sends them together.
 */
export function useTimeline(patientId: string, { patientView }: { patientView: boolean }): TimelineData {
  const client = useFhirClient();
  const access = useChartAccess();
  const plan = useMemo(() => timelinePlan({ patientView }, access), [patientView, access]);
  const results = useQueries({
    queries: [
      {
        // Keyed like the console's history, so a save of the patient refreshes it.
        queryKey: ['hearth-history', 'Patient', patientId, 'timeline'],
        queryFn: ({ signal }: { signal: AbortSignal }) =>
          client.readHistory('Patient', patientId, { signal, cache: 'no-cache' }) as Promise<Bundle>,
        retry: false,
      },
      ...plan.asked.map(({ resourceType, parameter }) => ({
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
    const notAllowed = plan.notAllowed.map((search) => search.label);
    const errors: string[] = [];
    const others: Resource[] = [];
    searches.forEach((result, index) => {
      const { resourceType: type, label } = plan.asked[index]!;
      if (result.error) {
        if (isAccessDenied(result.error)) notAllowed.push(label);
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
  }, [stamp, plan]);
}
