import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Bundle, Resource, ResourceType } from '@medplum/fhirtypes';
import { CHART_TAB_PAGE_SIZE, CHART_TAB_SORT } from '../../config/clinical/chartTabs';
import { PATIENT_SEARCH_PARAMETER } from '../../config/clinical/patientReferenceFields';
import { useFhirClient } from '../../src/resources/useFhirClient';

/** The search of a chart tab (app-spec §2.3): the patient's resources of one type, newest first. */
export function chartTabQuery(
  patientId: string,
  filters: Record<string, string> | undefined,
  offset: number,
): Record<string, string> {
  return {
    [PATIENT_SEARCH_PARAMETER]: `Patient/${patientId}`,
    ...filters,
    _sort: CHART_TAB_SORT,
    _count: String(CHART_TAB_PAGE_SIZE),
    _offset: String(offset),
    _total: 'accurate',
  };
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
) {
  const client = useFhirClient();
  const query = chartTabQuery(patientId, filters, offset);
  return useQuery<{ resources: Resource[]; total?: number }, Error>({
    queryKey: ['hearth-search', resourceType, 'chart', query],
    queryFn: async ({ signal }) => {
      const bundle: Bundle = await client.search(resourceType as ResourceType, query, { signal, cache: 'no-cache' });
      const resources = (bundle.entry ?? [])
        .filter((entry) => entry.search?.mode !== 'include')
        .map((entry) => entry.resource as Resource)
        .filter(Boolean);
      return { resources, total: bundle.total };
    },
    placeholderData: keepPreviousData,
    retry: false,
  });
}
