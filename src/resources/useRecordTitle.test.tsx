import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from './useFhirClient';
import { useRecordTitle } from './useRecordTitle';

const soap: Questionnaire = {
  resourceType: 'Questionnaire',
  id: 'q1',
  status: 'active',
  url: 'https://hearth-emr.org/fhir/Questionnaire/soap',
  version: '1.0.0',
  title: 'SOAP Note - Menopause Service',
};

function renderTitle(resource: Parameters<typeof useRecordTitle>[0], found: Questionnaire | undefined) {
  const searchOne = vi.fn(async () => found);
  const client = { searchOne, readResource: vi.fn() } as unknown as FhirClient;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>{children}</FhirClientContext.Provider>
    </QueryClientProvider>
  );
  return { ...renderHook(() => useRecordTitle(resource, 'Loading title'), { wrapper }), searchOne };
}

const response: QuestionnaireResponse = {
  resourceType: 'QuestionnaireResponse',
  id: 'r1',
  status: 'completed',
  questionnaire: 'https://hearth-emr.org/fhir/Questionnaire/soap|1.0.0',
};

describe('useRecordTitle', () => {
  it('heads a questionnaire response with the title of the questionnaire it answers, found by its canonical', async () => {
    const { result, searchOne } = renderTitle(response, soap);
    await waitFor(() => expect(result.current).toBe('SOAP Note - Menopause Service'));
    expect(searchOne).toHaveBeenCalledWith(
      'Questionnaire',
      { url: 'https://hearth-emr.org/fhir/Questionnaire/soap', version: '1.0.0' },
      expect.anything(),
    );
  });

  it('falls back to the display string when the questionnaire is not found, and to the fallback while nothing loaded', async () => {
    const { result } = renderTitle(response, undefined);
    await waitFor(() => expect(result.current).toBe('QuestionnaireResponse/r1'));
    expect(renderTitle(undefined, soap).result.current).toBe('Loading title');
  });

  it('names other records by their display string without asking for a questionnaire', () => {
    const { result, searchOne } = renderTitle(
      { resourceType: 'Patient', id: 'p1', name: [{ given: ['Wendy'], family: 'Littel' }] },
      soap,
    );
    expect(result.current).toBe('Wendy Littel');
    expect(searchOne).not.toHaveBeenCalled();
  });
});
