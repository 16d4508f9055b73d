import type { Bundle } from '@medplum/fhirtypes';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from './fakeWebSocket.test-support';
import type { BindingToken, SubscriptionBackend } from './subscriptionBackend';
import { SubscriptionManager, type SubscriptionNotification } from './subscriptionManager';

const websocketUrl = 'ws://localhost:8103/ws/subscriptions-r4';

/** Lets pending promise callbacks run (fake timers do not touch microtasks). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function fakeBackend() {
  let subscriptions = 0;
  let tokens = 0;
  const backend = {
    createSubscription: vi.fn(async (_criteria: string) => ({ id: `sub-${++subscriptions}` })),
    getBindingToken: vi.fn(async (id: string): Promise<BindingToken> => ({
      token: `token-${id}-${++tokens}`,
      websocketUrl,
    })),
  } satisfies SubscriptionBackend;
  return backend;
}

function notification(subscriptionId: string, resource: object = { resourceType: 'Communication', id: 'c1' }): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'history',
    entry: [
      {
        resource: {
          resourceType: 'SubscriptionStatus',
          status: 'active',
          type: 'event-notification',
          subscription: { reference: `Subscription/${subscriptionId}` },
        },
      },
      { resource: resource as Bundle },
    ],
  };
}

function setup(backend: SubscriptionBackend = fakeBackend()) {
  const manager = new SubscriptionManager({ backend, WebSocket: FakeWebSocket });
  const events: string[] = [];
  manager.on('connect', ({ reconnected }) => events.push(reconnected ? 'reconnect' : 'connect'));
  manager.on('disconnect', () => events.push('disconnect'));
  manager.on('error', ({ error, criteria }) =>
    events.push(`error ${error.message}${criteria ? ` [${criteria}]` : ''}`),
  );
  manager.on('message', ({ criteria }) => events.push(`message ${criteria}`));
  manager.on('bound', ({ criteria }) => events.push(`bound ${criteria}`));
  manager.on('heartbeat', ({ subscriptionId }) => events.push(`heartbeat ${subscriptionId}`));
  return { manager, events };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0);
  FakeWebSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('SubscriptionManager: subscribing', () => {
  it('creates one subscription per criteria and binds it on one socket', async () => {
    const backend = fakeBackend();
    const { manager, events } = setup(backend);
    manager.addListener('Communication', () => {});
    manager.addListener('Communication', () => {});
    await settle();
    expect(backend.createSubscription).toHaveBeenCalledTimes(1);
    expect(backend.createSubscription).toHaveBeenCalledWith('Communication');
    expect(backend.getBindingToken).toHaveBeenCalledWith('sub-1');
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.latest.url).toBe(websocketUrl);
    FakeWebSocket.latest.serverOpens();
    expect(FakeWebSocket.latest.sentMessages).toEqual([
      { type: 'bind-with-token', payload: { token: 'token-sub-1-1' } },
    ]);
    expect(events).toEqual(['connect']);
    expect(manager.getSubscriptionId('Communication')).toBe('sub-1');
  });

  it('shares the socket between criteria and binds at once when it is already open', async () => {
    const backend = fakeBackend();
    const { manager } = setup(backend);
    manager.addListener('Communication', () => {});
    await settle();
    FakeWebSocket.latest.serverOpens();
    manager.addListener('Task?owner=Practitioner/1', () => {});
    await settle();
    expect(backend.createSubscription).toHaveBeenCalledTimes(2);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.latest.sentMessages).toEqual([
      { type: 'bind-with-token', payload: { token: 'token-sub-1-1' } },
      { type: 'bind-with-token', payload: { token: 'token-sub-2-2' } },
    ]);
    expect(manager.getCriteria()).toEqual(['Communication', 'Task?owner=Practitioner/1']);
  });

  it('delivers a notification to the listeners of its criteria only', async () => {
    const { manager, events } = setup();
    const communications: SubscriptionNotification[] = [];
    const communications2: SubscriptionNotification[] = [];
    const tasks: SubscriptionNotification[] = [];
    manager.addListener('Communication', (n) => communications.push(n));
    manager.addListener('Communication', (n) => communications2.push(n));
    manager.addListener('Task', (n) => tasks.push(n));
    await settle();
    FakeWebSocket.latest.serverOpens();
    const bundle = notification('sub-1');
    FakeWebSocket.latest.serverSends(bundle);
    expect(communications).toEqual([
      {
        criteria: 'Communication',
        subscriptionId: 'sub-1',
        bundle,
        resource: { resourceType: 'Communication', id: 'c1' },
      },
    ]);
    expect(communications2).toHaveLength(1);
    expect(tasks).toHaveLength(0);
    FakeWebSocket.latest.serverSends(notification('sub-unknown'));
    expect(communications).toHaveLength(1);
    expect(events).toEqual(['connect', 'message Communication']);
  });

  it('reports handshakes and heartbeats without delivering them to listeners', async () => {
    const { manager, events } = setup();
    const listener = vi.fn();
    manager.addListener('Communication', listener);
    await settle();
    FakeWebSocket.latest.serverOpens();
    const status = (type: string) => ({
      resourceType: 'Bundle',
      type: 'history',
      entry: [
        { resource: { resourceType: 'SubscriptionStatus', type, subscription: { reference: 'Subscription/sub-1' } } },
      ],
    });
    FakeWebSocket.latest.serverSends(status('handshake'));
    FakeWebSocket.latest.serverSends(status('heartbeat'));
    FakeWebSocket.latest.serverSends({ type: 'pong' });
    expect(listener).not.toHaveBeenCalled();
    expect(events).toEqual(['connect', 'bound Communication', 'heartbeat sub-1']);
  });
});

describe('SubscriptionManager: ping', () => {
  it('pings every 5000 ms while connected, and stops when disconnected', async () => {
    const { manager } = setup();
    manager.addListener('Communication', () => {});
    await settle();
    const socket = FakeWebSocket.latest;
    vi.advanceTimersByTime(3000);
    socket.serverOpens();
    const pings = () => socket.sentMessages.filter((m) => (m as { type: string }).type === 'ping').length;
    vi.advanceTimersByTime(4999);
    expect(pings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(pings()).toBe(1);
    vi.advanceTimersByTime(5000);
    expect(pings()).toBe(2);
    expect(socket.sentMessages.at(-1)).toEqual({ type: 'ping' });
    // Dropped at 10 s after opening; the new socket opens 1.5 s later and starts its own schedule.
    socket.serverDrops();
    vi.advanceTimersByTime(1000);
    const second = FakeWebSocket.latest;
    expect(second).not.toBe(socket);
    vi.advanceTimersByTime(500);
    second.serverOpens();
    await settle();
    const secondPings = () => second.sentMessages.filter((m) => (m as { type: string }).type === 'ping').length;
    vi.advanceTimersByTime(4999);
    expect(secondPings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(secondPings()).toBe(1);
    expect(pings()).toBe(2);
  });
});

describe('SubscriptionManager: unsubscribing', () => {
  it('unbinds 3000 ms after the last listener leaves', async () => {
    const { manager } = setup();
    const removeFirst = manager.addListener('Communication', () => {});
    const removeSecond = manager.addListener('Communication', () => {});
    await settle();
    const socket = FakeWebSocket.latest;
    socket.serverOpens();
    removeFirst();
    vi.advanceTimersByTime(10_000);
    expect(socket.sent.filter((m) => m.includes('unbind'))).toHaveLength(0);
    removeSecond();
    vi.advanceTimersByTime(2999);
    expect(socket.sent.filter((m) => m.includes('unbind'))).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(socket.sentMessages.filter((m) => (m as { type: string }).type !== 'ping')).toEqual([
      { type: 'bind-with-token', payload: { token: 'token-sub-1-1' } },
      { type: 'unbind-from-token', payload: { token: 'token-sub-1-1' } },
    ]);
    expect(manager.getCriteria()).toEqual([]);
  });

  it('closes the socket once no subscription is left, and opens a new one for the next listener', async () => {
    const { manager, events } = setup();
    const removeCommunication = manager.addListener('Communication', () => {});
    const removeTask = manager.addListener('Task', () => {});
    await settle();
    const first = FakeWebSocket.latest;
    first.serverOpens();
    removeCommunication();
    vi.advanceTimersByTime(3000);
    expect(first.readyState).toBe(1);
    removeTask();
    vi.advanceTimersByTime(3000);
    expect(first.readyState).toBe(3);
    expect(events).toEqual(['connect', 'disconnect']);
    // No reconnect and no more pings on a socket closed on purpose.
    const sentBeforeClose = first.sent.length;
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(first.sent).toHaveLength(sentBeforeClose);

    manager.addListener('Communication', () => {});
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.latest.serverOpens();
    expect(FakeWebSocket.latest.sentMessages).toEqual([
      { type: 'bind-with-token', payload: { token: 'token-sub-3-3' } },
    ]);
  });

  it('keeps the subscription when a listener comes back within the delay', async () => {
    const backend = fakeBackend();
    const { manager } = setup(backend);
    manager.addListener('Communication', () => {})();
    await settle();
    FakeWebSocket.latest.serverOpens();
    vi.advanceTimersByTime(2000);
    const listener = vi.fn();
    manager.addListener('Communication', listener);
    vi.advanceTimersByTime(10_000);
    expect(FakeWebSocket.latest.sent.filter((m) => m.includes('unbind'))).toHaveLength(0);
    expect(backend.createSubscription).toHaveBeenCalledTimes(1);
    FakeWebSocket.latest.serverSends(notification('sub-1'));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('creates a new subscription for a criteria added again after the unbind', async () => {
    const backend = fakeBackend();
    const { manager } = setup(backend);
    manager.addListener('Communication', () => {})();
    await settle();
    vi.advanceTimersByTime(3000);
    manager.addListener('Communication', () => {});
    await settle();
    expect(backend.createSubscription).toHaveBeenCalledTimes(2);
    expect(manager.getSubscriptionId('Communication')).toBe('sub-2');
  });

  it('ignores removing a listener that was never added', async () => {
    const { manager } = setup();
    manager.addListener('Communication', () => {});
    manager.removeListener('Communication', () => {});
    manager.removeListener('Other', () => {});
    vi.advanceTimersByTime(3000);
    expect(manager.getCriteria()).toEqual(['Communication']);
  });

  it('does not bind a subscription given up while its creation was still under way', async () => {
    let resolveCreation: (value: { id: string }) => void = () => {};
    const backend = fakeBackend();
    backend.createSubscription.mockImplementationOnce(() => new Promise((resolve) => (resolveCreation = resolve)));
    const { manager } = setup(backend);
    manager.addListener('Communication', () => {})();
    vi.advanceTimersByTime(3000);
    resolveCreation({ id: 'late' });
    await settle();
    expect(backend.getBindingToken).not.toHaveBeenCalled();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });
});

describe('SubscriptionManager: reconnecting', () => {
  it('reconnects after the backoff delay and binds every subscription with fresh tokens', async () => {
    const backend = fakeBackend();
    const { manager, events } = setup(backend);
    manager.addListener('Communication', () => {});
    manager.addListener('Task', () => {});
    await settle();
    FakeWebSocket.latest.serverOpens();
    FakeWebSocket.latest.serverDrops();
    expect(events).toEqual(['connect', 'disconnect']);
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.latest.serverOpens();
    await settle();
    expect(events).toEqual(['connect', 'disconnect', 'reconnect']);
    expect(backend.getBindingToken).toHaveBeenCalledTimes(4);
    expect(FakeWebSocket.latest.sentMessages).toEqual([
      { type: 'bind-with-token', payload: { token: 'token-sub-1-3' } },
      { type: 'bind-with-token', payload: { token: 'token-sub-2-4' } },
    ]);
    // Notifications flow again on the new socket.
    const listener = vi.fn();
    manager.addListener('Communication', listener);
    FakeWebSocket.latest.serverSends(notification('sub-1'));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('binds on the socket that opens after a connection timeout', async () => {
    const { manager, events } = setup();
    manager.addListener('Communication', () => {});
    await settle();
    vi.advanceTimersByTime(4000);
    expect(events).toEqual(['error Websocket did not open within 4000 ms']);
    vi.advanceTimersByTime(1000);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.latest.serverOpens();
    expect(FakeWebSocket.latest.sentMessages).toEqual([
      { type: 'bind-with-token', payload: { token: 'token-sub-1-1' } },
    ]);
  });

  it('does not bind again a subscription unbound while disconnected', async () => {
    const backend = fakeBackend();
    const { manager } = setup(backend);
    manager.addListener('Communication', () => {})();
    await settle();
    FakeWebSocket.latest.serverOpens();
    FakeWebSocket.latest.serverDrops();
    vi.advanceTimersByTime(3000);
    FakeWebSocket.latest.serverOpens();
    await settle();
    expect(FakeWebSocket.latest.sent).toEqual([]);
    expect(backend.getBindingToken).toHaveBeenCalledTimes(1);
  });
});

describe('SubscriptionManager: failures', () => {
  it("reports 'Failed to get token' when the binding-token call fails", async () => {
    const backend = fakeBackend();
    backend.getBindingToken.mockRejectedValueOnce(new Error('403 Forbidden'));
    const { manager } = setup(backend);
    const errors: Error[] = [];
    manager.on('error', ({ error }) => errors.push(error));
    manager.addListener('Communication', () => {});
    await settle();
    expect(errors.map((error) => error.message)).toEqual(['Failed to get token']);
    expect((errors[0].cause as Error).message).toBe('403 Forbidden');
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it("reports 'Failed to get token' when the answer has no token", async () => {
    const backend = fakeBackend();
    backend.getBindingToken.mockResolvedValueOnce({ token: '', websocketUrl });
    const { manager, events } = setup(backend);
    manager.addListener('Communication', () => {});
    await settle();
    expect(events).toEqual(['error Failed to get token [Communication]']);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it("reports 'Failed to get URL from $get-ws-binding-token' when the answer has no websocket URL", async () => {
    const backend = fakeBackend();
    backend.getBindingToken.mockResolvedValueOnce({ token: 'abc', websocketUrl: '' });
    const { manager, events } = setup(backend);
    manager.addListener('Communication', () => {});
    await settle();
    expect(events).toEqual(['error Failed to get URL from $get-ws-binding-token [Communication]']);
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('reports a failed subscription creation and tries again for the next listener', async () => {
    const backend = fakeBackend();
    backend.createSubscription.mockRejectedValueOnce(new Error('500'));
    const { manager, events } = setup(backend);
    manager.addListener('Communication', () => {});
    await settle();
    expect(events).toEqual(['error Failed to create subscription for Communication [Communication]']);
    expect(manager.getCriteria()).toEqual([]);
    manager.addListener('Communication', () => {});
    await settle();
    expect(backend.createSubscription).toHaveBeenCalledTimes(2);
    expect(manager.getSubscriptionId('Communication')).toBe('sub-1');
  });

  it('reports server errors, unreadable messages and socket errors', async () => {
    const { manager, events } = setup();
    manager.addListener('Communication', () => {});
    await settle();
    FakeWebSocket.latest.serverOpens();
    FakeWebSocket.latest.serverSends({
      type: 'error',
      payload: {
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'invalid', diagnostics: 'Bad token' }],
      },
    });
    FakeWebSocket.latest.serverSends('not json');
    FakeWebSocket.latest.networkError();
    expect(events).toEqual([
      'connect',
      'error Subscription server error: Bad token',
      'error Subscription message is not JSON: not json',
      `error Websocket error on ${websocketUrl}`,
    ]);
  });

  it('keeps delivering to other listeners when one throws, and reports the failure', async () => {
    const { manager, events } = setup();
    const second = vi.fn();
    manager.addListener('Communication', () => {
      throw new Error('render failed');
    });
    manager.addListener('Communication', second);
    await settle();
    FakeWebSocket.latest.serverOpens();
    FakeWebSocket.latest.serverSends(notification('sub-1'));
    expect(second).toHaveBeenCalledTimes(1);
    expect(events).toEqual([
      'connect',
      'error A listener for Communication failed [Communication]',
      'message Communication',
    ]);
  });
});

describe('SubscriptionManager: lifecycle', () => {
  it('closes the socket for good and refuses new listeners', async () => {
    const { manager, events } = setup();
    manager.addListener('Communication', () => {})();
    await settle();
    FakeWebSocket.latest.serverOpens();
    manager.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.latest.sent.filter((m) => m.includes('unbind'))).toHaveLength(0);
    expect(events).toEqual(['connect', 'disconnect']);
    expect(() => manager.addListener('Communication', () => {})).toThrow('SubscriptionManager is closed');
  });

  it('does not open a socket for a token that arrives after close', async () => {
    const { manager } = setup();
    manager.addListener('Communication', () => {});
    manager.close();
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('uses the global WebSocket by default and needs one', async () => {
    vi.stubGlobal('WebSocket', undefined);
    expect(() => new SubscriptionManager({ backend: fakeBackend() })).toThrow('No WebSocket implementation');
    vi.stubGlobal('WebSocket', FakeWebSocket);
    new SubscriptionManager({ backend: fakeBackend() }).addListener('Communication', () => {});
    await settle();
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
