import { useCallback, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  definitionsGeneration,
  loadProfileSchema,
  loadSearchParameters,
  loadTypeSchema,
  subscribeToDefinitionWrites,
  type SearchParameterModel,
  type TypeSchema,
} from './typeSchema';
import { useFhirClient } from './useFhirClient';

/** Changes after this session writes a StructureDefinition or SearchParameter (schemas load anew). */
export function useDefinitionsGeneration(): number {
  const client = useFhirClient();
  const subscribe = useCallback((onChange: () => void) => subscribeToDefinitionWrites(client, onChange), [client]);
  return useSyncExternalStore(subscribe, () => definitionsGeneration(client));
}

/** The definition of a type, or of a profile when `profileUrl` is given. */
export function useTypeSchema(type: string | undefined, profileUrl?: string) {
  const client = useFhirClient();
  const generation = useDefinitionsGeneration();
  return useQuery<TypeSchema, Error>({
    queryKey: ['hearth-schema', type, profileUrl ?? '', generation],
    queryFn: () =>
      (profileUrl ? loadProfileSchema(client, profileUrl) : loadTypeSchema(client, type as string)).then(
        // Benchmark mark (docs/benchmarks.md): the schema's data has arrived and its model is built.
        (schema) => (performance.mark(`hearth:schema-loaded:${profileUrl ?? type}`), schema),
      ),
    enabled: !!type,
    staleTime: Infinity,
    retry: false,
  });
}

export function useSearchParameters(type: string | undefined) {
  const client = useFhirClient();
  const generation = useDefinitionsGeneration();
  return useQuery<SearchParameterModel[], Error>({
    queryKey: ['hearth-search-parameters', type, generation],
    queryFn: () => loadSearchParameters(client, type as string),
    enabled: !!type,
    staleTime: Infinity,
    retry: false,
  });
}
