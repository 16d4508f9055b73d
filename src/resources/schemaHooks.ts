import { useQuery } from '@tanstack/react-query';
import {
  loadProfileSchema,
  loadSearchParameters,
  loadTypeSchema,
  type SearchParameterModel,
  type TypeSchema,
} from './typeSchema';
import { useFhirClient } from './useFhirClient';

/** The definition of a type, or of a profile when `profileUrl` is given. */
export function useTypeSchema(type: string | undefined, profileUrl?: string) {
  const client = useFhirClient();
  return useQuery<TypeSchema, Error>({
    queryKey: ['hearth-schema', type, profileUrl ?? ''],
    queryFn: () => (profileUrl ? loadProfileSchema(client, profileUrl) : loadTypeSchema(client, type as string)),
    enabled: !!type,
    staleTime: Infinity,
    retry: false,
  });
}

export function useSearchParameters(type: string | undefined) {
  const client = useFhirClient();
  return useQuery<SearchParameterModel[], Error>({
    queryKey: ['hearth-search-parameters', type],
    queryFn: () => loadSearchParameters(client, type as string),
    enabled: !!type,
    staleTime: Infinity,
    retry: false,
  });
}
