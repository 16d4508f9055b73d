import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Questionnaire, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { notFound, OperationOutcomeError } from '../../data-provider/outcomes';
import { FhirClientContext } from '../resources/useFhirClient';
import { lookUpCodeDisplay } from './codeDisplayLookup';
import { unnamedCodes } from './unnamedCodes';
import { useCodeDisplays } from './useCodeDisplays';

const LOINC = 'http://loinc.org';

/** A server that stores no LOINC: every lookup is the 404 of an unknown code system. */
function loinclessClient() {
  const get = vi.fn(async (_url: URL) => Promise.reject(new OperationOutcomeError(notFound(), 404)));
  const client = {
    fhirUrl: (...path: string[]) => new URL(`https://hearth.example/fhir/R4/${path.join('/')}`),
    get,
  } as unknown as FhirClient;
  return { client, get };
}

describe('code display lookups', () => {
  it('are never sent without a code or a system', async () => {
    const { client, get } = loinclessClient();
    expect(await lookUpCodeDisplay(client, { system: LOINC, code: '' })).toBeNull();
    expect(await lookUpCodeDisplay(client, { system: LOINC, code: '  ' })).toBeNull();
    expect(await lookUpCodeDisplay(client, { system: '', code: '44249-1' })).toBeNull();
    expect(get).not.toHaveBeenCalled();
  });

  it('take an unknown code (404) as no display, not as an error', async () => {
    const { client, get } = loinclessClient();
    await expect(lookUpCodeDisplay(client, { system: LOINC, code: '44249-1' })).resolves.toBeNull();
    expect(String(get.mock.calls[0][0])).toContain('code=44249-1');
  });

  it('are not asked for codings of a page without a code', () => {
    const questionnaire = {
      resourceType: 'Questionnaire',
      id: 'q',
      status: 'active',
      code: [{ system: LOINC }, { system: LOINC, code: ' ' }, { system: LOINC, code: '44249-1' }],
    } satisfies Questionnaire;
    const resources: Resource[] = [questionnaire];
    expect(unnamedCodes(resources, [{ path: 'code', type: 'Coding' }])).toEqual([{ system: LOINC, code: '44249-1' }]);
  });

  it('keep "no display" in the cache as an answer, as long as a display', async () => {
    const { client, get } = loinclessClient();
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <FhirClientContext.Provider value={client}>{children}</FhirClientContext.Provider>
      </QueryClientProvider>
    );
    const codes = [{ system: LOINC, code: '44249-1' }];
    const { result, unmount } = renderHook(() => useCodeDisplays(codes), { wrapper });
    const key = ['hearth-code-display', `${LOINC}|44249-1`];
    await waitFor(() => expect(queryClient.getQueryState(key)?.status).toBe('success'));
    expect(queryClient.getQueryData(key)).toBeNull();
    expect(result.current.size).toBe(0);
    unmount();
    // Kept past TanStack Query's default five minutes after the list is left.
    expect(queryClient.getQueryCache().find({ queryKey: key })?.gcTime).toBeGreaterThanOrEqual(10 * 60_000);
    renderHook(() => useCodeDisplays(codes), { wrapper });
    expect(get).toHaveBeenCalledTimes(1);
  });
});
