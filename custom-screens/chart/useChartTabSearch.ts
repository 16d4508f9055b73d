import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Bundle, Resource, ResourceType } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { chartTabQuery } from './chartTabQuery';
import { NO_REFERENCE_NAMES, referenceNamesOf, type ReferenceNames } from './referenceNames';

/** One page of a tab: its rows, the total, and the names of what the rows point at. */
export interface ChartTabPage {
  resources: Resource[];
  total?: number;
  names: ReferenceNames;
}

/**
 * One page of a chart tab. Its key starts like the console's searches (`hearth-search`, type), so a
 * save anywhere that refreshes the type's lists refreshes this one too.
 */
export function useChartTabSearch(
  resourceType: string,
  patientId: string,
  filters: Record<string, string> | undefined,
  offset: number,
  includes?: readonly string[],
  enabled = true,
) {
  const client = useFhirClient();
  const query = chartTabQuery(resourceType, patientId, filters, offset, includes);
  return useQuery<ChartTabPage, Error>({
    queryKey: ['hearth-search', resourceType, 'chart', query],
    queryFn: async ({ signal }) => {
      const bundle: Bundle = await client.search(resourceType as ResourceType, query, { signal, cache: 'no-cache' });
      const entries = bundle.entry ?? [];
      const of = (include: boolean) =>
        entries
          .filter((entry) => (entry.search?.mode === 'include') === include)
          .map((entry) => entry.resource as Resource)
          .filter(Boolean);
      const included = of(true);
      return {
        resources: of(false),
        total: bundle.total,
        names: included.length ? referenceNamesOf(included) : NO_REFERENCE_NAMES,
      };
    },
    placeholderData: keepPreviousData,
    enabled,
    retry: false,
  });
}
