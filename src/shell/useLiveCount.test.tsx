import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy } from '@medplum/fhirtypes';
import { ResourceWriteEvent, type FhirClient } from '../../data-provider/client';
import { ShellClientContext } from './shellClient';
import { useLiveCount } from './useLiveCount';

const frontDesk: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [{ resourceType: 'Patient' }, { resourceType: 'Task' }, { resourceType: 'Communication' }],
};
const patient: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [{ resourceType: '*', compartment: { reference: 'Patient/p1' } }],
};
const withSubscriptions: AccessPolicy = {
  resourceType: 'AccessPolicy',
  resource: [{ resourceType: 'Task' }, { resourceType: 'Subscription' }],
};

function fakeClient(policy: AccessPolicy | undefined) {
  // The client's own events: its write announcements (RESOURCE_WRITE_EVENT) come through here.
  const events = new EventTarget();
  return {
    search: vi.fn(async () => ({ resourceType: 'Bundle', type: 'searchset', total: 3 })),
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    dispatchEvent: events.dispatchEvent.bind(events),
    getAccessPolicy: () => policy,
    isSuperAdmin: () => false,
    // Refused as the server refuses it, so a test that expects no call fails loudly if one is made.
    createResource: vi.fn(async () => Promise.reject(new Error('Forbidden'))),
    getSubscriptionBindingToken: vi.fn(async () => Promise.reject(new Error('Forbidden'))),
  };
}

function countWith(client: ReturnType<typeof fakeClient>) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <ShellClientContext.Provider value={client as unknown as FhirClient}>{children}</ShellClientContext.Provider>
  );
  return renderHook(() => useLiveCount('Task', 'status=ready'), { wrapper });
}

describe('useLiveCount', () => {
  it.each([
    ['the front desk (no Subscription in the policy)', frontDesk],
    ['a patient (a compartment does not cover a Subscription)', patient],
  ])('counts without subscribing for %s', async (_who, policy) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = fakeClient(policy);
    const { result } = countWith(client);
    await waitFor(() => expect(result.current.count).toBe(3));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(client.createResource).not.toHaveBeenCalled();
    expect(result.current.live).toBe(false);
    warn.mockRestore();
  });

  it('subscribes when the policy lets the user create Subscriptions', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = fakeClient(withSubscriptions);
    const { result } = countWith(client);
    await waitFor(() => expect(result.current.count).toBe(3));
    await waitFor(() => expect(client.createResource).toHaveBeenCalled());
    expect(client.createResource.mock.calls[0]).toMatchObject([
      { resourceType: 'Subscription', criteria: 'Task?status=ready' },
    ]);
    warn.mockRestore();
  });

  it('counts again at once when this tab writes a resource of the type, and not for other types', async () => {
    const client = fakeClient(frontDesk);
    const { result } = countWith(client);
    await waitFor(() => expect(result.current.count).toBe(3));
    expect(client.search).toHaveBeenCalledTimes(1);

    client.search.mockResolvedValue({ resourceType: 'Bundle', type: 'searchset', total: 2 });
    act(() => void client.dispatchEvent(new ResourceWriteEvent(['Communication'])));
    expect(client.search).toHaveBeenCalledTimes(1);

    act(() => void client.dispatchEvent(new ResourceWriteEvent(['Task'])));
    await waitFor(() => expect(result.current.count).toBe(2));
    expect(client.search).toHaveBeenLastCalledWith('Task', 'status=ready&_summary=count', { cache: 'no-store' });
  });

  it('shows the latest count when an older one answers last', async () => {
    const client = fakeClient(frontDesk);
    const { result } = countWith(client);
    await waitFor(() => expect(result.current.count).toBe(3));
    let answerOld: (total: number) => void = () => undefined;
    client.search
      .mockImplementationOnce(
        () =>
          new Promise(
            (resolve) => (answerOld = (total) => resolve({ resourceType: 'Bundle', type: 'searchset', total })),
          ),
      )
      .mockResolvedValueOnce({ resourceType: 'Bundle', type: 'searchset', total: 1 });
    act(() => void client.dispatchEvent(new ResourceWriteEvent(['Task'])));
    act(() => void client.dispatchEvent(new ResourceWriteEvent(undefined)));
    await waitFor(() => expect(result.current.count).toBe(1));
    await act(async () => answerOld(2));
    expect(result.current.count).toBe(1);
  });

  it('stops listening for writes when unmounted', async () => {
    const client = fakeClient(frontDesk);
    const { result, unmount } = countWith(client);
    await waitFor(() => expect(result.current.count).toBe(3));
    unmount();
    client.dispatchEvent(new ResourceWriteEvent(['Task']));
    expect(client.search).toHaveBeenCalledTimes(1);
  });
});
