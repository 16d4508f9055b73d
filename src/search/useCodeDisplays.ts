import { useMemo } from 'react';
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useFhirClient } from '../resources/useFhirClient';
import { lookUpCodeDisplay } from './codeDisplayLookup';
import { codeKey, type CodeDisplays } from './searchColumns';
import type { SystemCode } from './unnamedCodes';

const NONE: CodeDisplays = new Map();

const ANSWER_LIFETIME = 10 * 60_000;

/**
 * The answers in the order the codes were given. TanStack Query shares the array structurally, so
 * it stays the same object while no answer changes and the displays are not rebuilt on every render.
 */
const answersOf = (results: UseQueryResult<string | null, Error>[]): (string | null)[] =>
  results.map((result) => result.data ?? null);

/**
 * Displays for codes that nothing names (the list's page, one value on the Details tab); the codes
 * show until they arrive, or if they do not. One cache entry per `system|code`, so a code the list
 * looked up is not asked again by the Details tab, nor by the next page; the lookups of one moment
 * are GETs the client sends as one batch.
 */
export function useCodeDisplays(codes: readonly SystemCode[]): CodeDisplays {
  const client = useFhirClient();
  const answers = useQueries({
    queries: codes.map((code) => ({
      queryKey: ['hearth-code-display', codeKey(code.system, code.code)],
      queryFn: ({ signal }) => lookUpCodeDisplay(client, code, signal),
      // A code system's displays do not change while the console is open. "No display" (a code
      // the server does not know answers 404) is kept as long: leaving a list for a few minutes
      // and coming back would otherwise ask for every unknown code, and log each 404, again.
      staleTime: ANSWER_LIFETIME,
      gcTime: ANSWER_LIFETIME,
      retry: false,
    })),
    combine: answersOf,
  });
  return useMemo(() => {
    if (!answers.some(Boolean)) return NONE;
    const displays = new Map<string, string>();
    codes.forEach(({ system, code }, index) => {
      const display = answers[index];
      if (display) displays.set(codeKey(system, code), display);
    });
    return displays;
  }, [codes, answers]);
}
