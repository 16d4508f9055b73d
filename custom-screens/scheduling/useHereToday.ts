import { useQueries, useQuery } from '@tanstack/react-query';
import type { Appointment, Bundle } from '@medplum/fhirtypes';
import { localDay } from '../../data-provider/rules';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { arrivalTime } from './arrivalTime';
import { hereTodaySearch } from './hereTodaySearch';
import { byArrival, hereTodayVisits, type HereTodayVisit } from './hereTodayVisits';
import { useMinuteClock } from './useMinuteClock';

/**
 * The list is read again this often while the screen is shown: a check-in made at another desk
 * appears without a reload. The appointment lists have no live subscription to join (the front
 * desk's policy allows Subscriptions on chat messages only), so the view also re-reads when the
 * window regains focus.
 */
export const HERE_TODAY_REFRESH_MS = 60_000;

export interface HereTodayArrival extends HereTodayVisit {
  /** When the patient checked in (arrivalTime.ts); undefined while its history loads. */
  arrival?: string;
}

export interface HereToday {
  visits: HereTodayArrival[];
  loading: boolean;
  error?: Error;
  /** More checked-in appointments than one search returns (HERE_TODAY_LIMIT). */
  more: boolean;
  now: Date;
}

/** Who is in the building today (hereTodaySearch.ts), longest wait first. */
export function useHereToday(): HereToday {
  const client = useFhirClient();
  const now = useMinuteClock();
  const day = localDay(now);
  const search = useQuery<Bundle, Error>({
    // Under 'hearth-search'/'Appointment': every appointment write (useAppointmentUpdate,
    // useBookAppointment, the editor) refreshes it with the lists.
    queryKey: ['hearth-search', 'Appointment', 'here-today', day],
    queryFn: ({ signal }) =>
      client.search('Appointment', hereTodaySearch(now), { signal, cache: 'no-cache' }) as Promise<Bundle>,
    refetchInterval: HERE_TODAY_REFRESH_MS,
    refetchOnWindowFocus: true,
    retry: false,
  });
  const visits = hereTodayVisits(search.data);
  // The arrival of one version never changes: read each appointment's history once per version.
  const histories = useQueries({
    queries: visits.map(({ appointment }) => ({
      queryKey: ['hearth-appointment-arrival', appointment.id, appointment.meta?.versionId],
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const bundle = await client.readHistory('Appointment', appointment.id as string, { signal });
        return (bundle.entry ?? []).map((entry) => entry.resource).filter((r): r is Appointment => !!r);
      },
      enabled: !!appointment.id,
      staleTime: Infinity,
      retry: false,
    })),
  });
  const withArrival = visits.map((visit, index) => {
    const history = histories[index];
    const settled = history && (history.isSuccess || history.isError);
    return { ...visit, arrival: settled ? arrivalTime(visit.appointment, history.data) : undefined };
  });
  return {
    visits: byArrival(withArrival),
    loading: search.isPending,
    error: search.error ?? undefined,
    more: !!search.data?.link?.some((link) => link.relation === 'next'),
    now,
  };
}
