import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useFhirClient } from '../resources/useFhirClient';
import { lookUpReferenceNames } from './referenceNameLookup';
import type { ReferenceNames } from './searchColumns';

const NONE: ReferenceNames = new Map();

/**
 * Names for a page's references without a display. The page shows at once with the bare references
 * and the names replace them when they arrive; a failed lookup leaves them bare.
 */
export function useReferenceNames(references: readonly string[]): ReferenceNames {
  const client = useFhirClient();
  const key = useMemo(() => [...references].sort(), [references]);
  const names = useQuery<ReferenceNames, Error>({
    queryKey: ['hearth-reference-names', key],
    queryFn: ({ signal }) => lookUpReferenceNames(client, key, signal),
    enabled: key.length > 0,
    // A name rarely changes; a list paged back and forth should not ask again each time.
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return key.length > 0 ? (names.data ?? NONE) : NONE;
}
