import { useQuery } from '@tanstack/react-query';
import type { Bundle, Resource, ResourceType } from '@medplum/fhirtypes';
import { useFhirClient } from './useFhirClient';

export function resourceQueryKey(resourceType: string, id: string) {
  return ['hearth-resource', resourceType, id];
}

/** The current version of one resource, read fresh when the page opens. */
export function useResource(resourceType: string, id: string | undefined) {
  const client = useFhirClient();
  return useQuery<Resource, Error>({
    queryKey: resourceQueryKey(resourceType, id ?? ''),
    queryFn: ({ signal }) =>
      client.readResource(resourceType as ResourceType, id as string, {
        signal,
        cache: 'no-cache',
      }) as Promise<Resource>,
    enabled: !!id,
    retry: false,
  });
}

export function useResourceHistory(resourceType: string, id: string) {
  const client = useFhirClient();
  return useQuery<Bundle, Error>({
    queryKey: ['hearth-history', resourceType, id],
    queryFn: ({ signal }) => client.readHistory(resourceType as ResourceType, id, { signal, cache: 'no-cache' }),
    retry: false,
  });
}

export function useResourceVersion(resourceType: string, id: string, versionId: string) {
  const client = useFhirClient();
  return useQuery<Resource, Error>({
    queryKey: ['hearth-version', resourceType, id, versionId],
    queryFn: ({ signal }) =>
      client.readVersion(resourceType as ResourceType, id, versionId, { signal }) as Promise<Resource>,
    retry: false,
    staleTime: Infinity,
  });
}
