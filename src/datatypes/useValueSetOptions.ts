import { useEffect, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Coding, ValueSetExpansionContains } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { useFhirClient } from '../resources/useFhirClient';
import { singleCodeSystem } from './typedCoding';

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

function expandQuery(client: FhirClient, url: string | undefined, filter: string, enabled: boolean) {
  return {
    queryKey: ['hearth-expand', url, filter],
    queryFn: async ({ signal }: { signal: AbortSignal }) =>
      flatten((await client.valueSetExpand({ url: url as string, filter, count: 20 }, { signal })).expansion?.contains),
    enabled: enabled && !!url,
    staleTime: 60_000,
    retry: false,
  };
}

/** Codes of a ValueSet matching the typed filter, from `ValueSet/$expand?url=&filter=`. */
export function useValueSetOptions(valueSet: string | undefined, filter: string, enabled: boolean) {
  const client = useFhirClient();
  const debounced = useDebounced(filter);
  return useQuery<Coding[], Error>(expandQuery(client, valueSet?.split('|')[0], debounced, enabled));
}

/** The hint of a coded input whose value list the server cannot give. */
export const VALUE_LIST_UNAVAILABLE = 'Value list not available: enter a code';

export interface ValueListState {
  /** `$expand` of the bound ValueSet answered (the list can be offered). */
  available: boolean;
  /** `$expand` failed (404: the server does not hold the ValueSet; or it cannot expand it). */
  unavailable: boolean;
  /** When unavailable: the one code system the ValueSet's definition names, if the server holds it. */
  system?: string;
  /** When unavailable: whether the ValueSet's definition is still being read. */
  systemPending: boolean;
}

/**
 * Whether a bound ValueSet can be expanded, asked once the input is `active` (focused): the
 * unfiltered `$expand` (the same cache entry as the list opened without a filter). When it cannot,
 * the ValueSet's definition is read for the code system a typed code belongs to.
 */
export function useValueList(valueSet: string | undefined, active: boolean): ValueListState {
  const client = useFhirClient();
  const url = valueSet?.split('|')[0];
  const probe = useQuery<Coding[], Error>(expandQuery(client, url, '', active));
  const unavailable = probe.isError;
  const definition = useQuery<string | null, Error>({
    queryKey: ['hearth-valueset-system', url],
    queryFn: async ({ signal }) =>
      singleCodeSystem(await client.searchOne('ValueSet', { url: url as string }, { signal })) ?? null,
    enabled: unavailable && !!url,
    staleTime: Infinity,
    retry: false,
  });
  return {
    available: probe.isSuccess,
    unavailable,
    system: definition.data ?? undefined,
    systemPending: unavailable && definition.isPending,
  };
}

/**
 * Enter inside a coded or reference field picks or keeps what was typed; it never submits the
 * form around it (the browser's implicit submission). The field's own handling still runs.
 */
export function keepEnterInField(event: KeyboardEvent): void {
  if (event.key === 'Enter') event.preventDefault();
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
