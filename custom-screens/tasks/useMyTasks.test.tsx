import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Bundle } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { useMyTasks } from './useMyTasks';

const frontDesk: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [{ resourceType: 'Task' }, { resourceType: 'Patient' }],
};
const clinician: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [{ resourceType: 'Task' }, { resourceType: 'Patient' }, { resourceType: 'PractitionerRole' }],
};

function renderMyTasks(policy: AccessPolicy) {
  const empty: Bundle = { resourceType: 'Bundle', type: 'searchset', entry: [] };
  const searchResources = vi.fn(async () => [{ resourceType: 'PractitionerRole', code: [{ text: 'Doctor' }] }]);
  const client = {
    search: vi.fn(async () => empty),
    searchResources,
    getAccessPolicy: () => policy,
    isSuperAdmin: () => false,
  } as unknown as FhirClient;
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>{children}</FhirClientContext.Provider>
    </QueryClientProvider>
  );
  const { result } = renderHook(() => useMyTasks('Practitioner/ben'), { wrapper });
  return { result, searchResources };
}

describe('useMyTasks', () => {
  it('lists the tasks of a member whose policy does not grant PractitionerRole, without asking for roles', async () => {
    const { result, searchResources } = renderMyTasks(frontDesk);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.roles).toEqual([]);
    expect(result.current.data?.rolesReadable).toBe(false);
    expect(searchResources).not.toHaveBeenCalled();
  });

  it("matches a clinician's roles", async () => {
    const { result, searchResources } = renderMyTasks(clinician);
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data?.roles).toEqual([{ text: 'Doctor' }]);
    expect(result.current.data?.rolesReadable).toBe(true);
    expect(searchResources).toHaveBeenCalledWith(
      'PractitionerRole',
      { practitioner: 'Practitioner/ben', _count: '50' },
      expect.anything(),
    );
  });
});
