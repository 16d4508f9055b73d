import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Bundle, ResourceType } from '@medplum/fhirtypes';
import type { SearchRequest } from '../../data-provider/search';
import { useFhirClient } from '../resources/useFhirClient';
import { serverQuery } from './searchState';

/** One page of search results; keeps the previous page on screen while the next loads. */
export function useSearchResults(request: SearchRequest) {
  const client = useFhirClient();
  const query = serverQuery(request);
  return useQuery<Bundle, Error>({
    queryKey: ['hearth-search', request.resourceType, query],
    queryFn: ({ signal }) => client.search(request.resourceType as ResourceType, query, { signal, cache: 'no-cache' }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}
