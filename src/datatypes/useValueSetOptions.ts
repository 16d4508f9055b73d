import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Coding, ValueSetExpansionContains } from '@medplum/fhirtypes';
import { useFhirClient } from '../resources/useFhirClient';

/** Search debounce (app-spec §9). */
export const SEARCH_DEBOUNCE_MS = 100;

export function useDebounced<T>(value: T, delay = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

function flatten(contains: ValueSetExpansionContains[] | undefined): Coding[] {
  return (contains ?? []).flatMap((entry) => [
    ...(entry.code ? [{ system: entry.system, code: entry.code, display: entry.display }] : []),
    ...flatten(entry.contains),
  ]);
}

/** Codes of a ValueSet matching the typed filter, from `ValueSet/$expand?url=&filter=`. */
export function useValueSetOptions(valueSet: string | undefined, filter: string, enabled: boolean) {
  const client = useFhirClient();
  const debounced = useDebounced(filter);
  const url = valueSet?.split('|')[0];
  return useQuery<Coding[], Error>({
    queryKey: ['hearth-expand', url, debounced],
    queryFn: async ({ signal }) =>
      flatten(
        (await client.valueSetExpand({ url: url as string, filter: debounced, count: 20 }, { signal })).expansion
          ?.contains,
      ),
    enabled: enabled && !!url,
    staleTime: 60_000,
    retry: false,
  });
}

/** The codes of an expansion, and how an option reads: 'Display (code)', or the code alone. */
export function codeChoices(codings: readonly Coding[] | undefined): {
  codes: string[];
  optionText: (code: string) => string;
} {
  const labels = new Map((codings ?? []).map((coding) => [coding.code as string, coding.display]));
  return {
    codes: [...labels.keys()],
    optionText: (code) => (labels.get(code) ? `${labels.get(code)} (${code})` : code),
  };
}
