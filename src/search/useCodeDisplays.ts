import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useFhirClient } from '../resources/useFhirClient';
import { lookUpCodeDisplays } from './codeDisplayLookup';
import { codeKey, type CodeDisplays } from './searchColumns';
import type { SystemCode } from './unnamedCodes';

const NONE: CodeDisplays = new Map();

/** Displays for a page's codes that nothing names; the codes show until they arrive, or if they do not. */
export function useCodeDisplays(codes: readonly SystemCode[]): CodeDisplays {
  const client = useFhirClient();
  const sorted = useMemo(
    () => [...codes].sort((a, b) => codeKey(a.system, a.code).localeCompare(codeKey(b.system, b.code))),
    [codes],
  );
  const displays = useQuery<CodeDisplays, Error>({
    queryKey: ['hearth-code-displays', sorted.map(({ system, code }) => codeKey(system, code))],
    queryFn: ({ signal }) => lookUpCodeDisplays(client, sorted, signal),
    enabled: sorted.length > 0,
    // A code system's displays do not change while a list is open.
    staleTime: 10 * 60_000,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return sorted.length > 0 ? (displays.data ?? NONE) : NONE;
}
