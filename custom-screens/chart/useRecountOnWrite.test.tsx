import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { FhirClient, RESOURCE_WRITE_EVENT, ResourceWriteEvent } from '../../data-provider/client';
import { FakeFetch } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { useRecountOnWrite } from './useRecountOnWrite';

/** The hook over a real client (its events are what is listened to) and a spied query cache. */
function renderRecount(resourceType: string, queryKeys: unknown[][]) {
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: new FakeFetch().fetch });
  const queryClient = new QueryClient();
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue(undefined);
  const listen = vi.spyOn(client, 'addEventListener');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <FhirClientContext.Provider value={client}>{children}</FhirClientContext.Provider>
    </QueryClientProvider>
  );
  const hook = renderHook(({ keys }) => useRecountOnWrite(resourceType, keys), {
    wrapper,
    initialProps: { keys: queryKeys },
  });
  const write = (types: string[] | undefined) => act(() => void client.dispatchEvent(new ResourceWriteEvent(types)));
  const asked = () => invalidate.mock.calls.map(([filters]) => filters?.queryKey);
  const listeners = () => listen.mock.calls.filter(([type]) => type === RESOURCE_WRITE_EVENT).length;
  return { ...hook, write, asked, listeners };
}

const taskKeys = [
  ['chart-summary', 'p1', 'openTasks'],
  ['hearth-search', 'Task'],
];

describe('useRecountOnWrite', () => {
  it('asks every key again when the client reports a write of the type', () => {
    const { write, asked } = renderRecount('Task', taskKeys);
    write(['Task']);
    expect(asked()).toEqual(taskKeys);
  });

  it('asks again after a write whose types could not be told (a batch it could not read)', () => {
    const { write, asked } = renderRecount('Task', taskKeys);
    write(undefined);
    expect(asked()).toEqual(taskKeys);
  });

  it('asks nothing when the write was of another type', () => {
    const { write, asked } = renderRecount('Task', taskKeys);
    write(['Appointment']);
    write([]);
    expect(asked()).toEqual([]);
  });

  it('stops listening once unmounted', () => {
    const { write, asked, unmount } = renderRecount('Task', taskKeys);
    unmount();
    write(['Task']);
    expect(asked()).toEqual([]);
  });

  it('listens once however often the caller renders the same keys, and asks the keys it was last given', () => {
    const { write, asked, rerender, listeners } = renderRecount('Task', taskKeys);
    // A new array of the same keys, as a caller builds them on each render.
    rerender({ keys: taskKeys.map((key) => [...key]) });
    expect(listeners()).toBe(1);
    write(['Task']);
    expect(asked()).toEqual(taskKeys);

    rerender({ keys: [['chart-summary', 'p2', 'openTasks']] });
    write(['Task']);
    expect(asked().slice(taskKeys.length)).toEqual([['chart-summary', 'p2', 'openTasks']]);
  });
});
