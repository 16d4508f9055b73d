import { useQuery } from '@tanstack/react-query';
import type { Reference, Resource } from '@medplum/fhirtypes';
import { nameOfResource } from '../../data-provider/formatting';
import { useFhirClient } from '../resources/useFhirClient';
import { isLocalReference } from '../search/unnamedReferences';

/**
 * The name of what a reference without a display points at (a Claim's `Patient/1f50…` from an
 * import), read through the client's cache and batching; undefined until it is known, or when the
 * target cannot be read — the caller then shows the reference as it is.
 */
export function useReferenceName(reference: Reference | undefined): string | undefined {
  const client = useFhirClient();
  const target = reference?.reference;
  const lookUp = !reference?.display && isLocalReference(target);
  const name = useQuery<string, Error>({
    queryKey: ['hearth-reference-name', target],
    queryFn: async ({ signal }) =>
      nameOfResource(await client.readReference<Resource>({ reference: target }, { signal })),
    enabled: lookUp,
    staleTime: 60_000,
    retry: false,
  });
  return lookUp ? name.data || undefined : undefined;
}
