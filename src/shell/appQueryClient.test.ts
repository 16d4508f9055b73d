import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppQueryClient } from './appQueryClient';

describe("the app's query cache while the browser says it is offline", () => {
  afterEach(() => onlineManager.setOnline(true));

  it('sends a read and lets its failure show, instead of holding it back with nothing on screen', async () => {
    onlineManager.setOnline(false);
    const client = createAppQueryClient();
    let calls = 0;
    const read = client.fetchQuery({
      queryKey: ['meds'],
      retry: false,
      queryFn: async () => {
        calls++;
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(read).rejects.toThrow('Failed to fetch');
    expect(calls).toBe(1);
    expect(client.getQueryState(['meds'])?.status).toBe('error');
  });

  it('sends a write at once, never keeping it to send unseen when the connection returns', async () => {
    onlineManager.setOnline(false);
    const client = createAppQueryClient();
    let sent = 0;
    const mutation = client.getMutationCache().build(client, {
      mutationFn: async () => {
        sent++;
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(mutation.execute(undefined)).rejects.toThrow('Failed to fetch');
    expect(sent).toBe(1);
    onlineManager.setOnline(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toBe(1);
  });
});
