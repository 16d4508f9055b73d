import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from './fakeWebSocket.test-support';
import { ReconnectingWebSocket } from './reconnectingWebSocket';

const url = 'ws://localhost/ws/subscriptions-r4';

function start(random = 0): { socket: ReconnectingWebSocket; events: string[] } {
  vi.spyOn(Math, 'random').mockReturnValue(random);
  const socket = new ReconnectingWebSocket(url, FakeWebSocket);
  const events: string[] = [];
  socket.on('open', ({ reconnected }) => events.push(reconnected ? 'reopen' : 'open'));
  socket.on('close', ({ code }) => events.push(`close ${code}`));
  socket.on('message', ({ data }) => events.push(`message ${data}`));
  socket.on('error', ({ error }) => events.push(`error ${error.message}`));
  socket.start();
  return { socket, events };
}

/** Advances to just before `delay` and checks that no new socket exists yet, then to `delay`. */
function expectNewSocketAfter(delay: number): FakeWebSocket {
  const count = FakeWebSocket.instances.length;
  vi.advanceTimersByTime(delay - 1);
  expect(FakeWebSocket.instances, `no reconnect before ${delay} ms`).toHaveLength(count);
  vi.advanceTimersByTime(1);
  expect(FakeWebSocket.instances, `reconnect at ${delay} ms`).toHaveLength(count + 1);
  return FakeWebSocket.latest;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeWebSocket.reset();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ReconnectingWebSocket', () => {
  it('connects on start, not before, and only once', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const socket = new ReconnectingWebSocket(url, FakeWebSocket);
    expect(FakeWebSocket.instances).toHaveLength(0);
    socket.start();
    socket.start();
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.latest.url).toBe(url);
  });

  it('reports open and messages, and sends only while open', () => {
    const { socket, events } = start();
    expect(socket.send('early')).toBe(false);
    FakeWebSocket.latest.serverOpens();
    expect(socket.isOpen).toBe(true);
    expect(socket.send('hello')).toBe(true);
    FakeWebSocket.latest.serverSends('{"type":"pong"}');
    expect(FakeWebSocket.latest.sent).toEqual(['hello']);
    expect(events).toEqual(['open', 'message {"type":"pong"}']);
  });

  it('takes the minimum delay at random between 1000 and 5000 ms', () => {
    for (const [random, minimum] of [
      [0, 1000],
      [0.5, 3000],
      [0.999, 4996],
    ]) {
      vi.spyOn(Math, 'random').mockReturnValue(random);
      expect(new ReconnectingWebSocket(url, FakeWebSocket).reconnectDelay(1)).toBe(minimum);
    }
  });

  it('grows the delay by 1.3 per failed attempt up to 10000 ms', () => {
    start(0);
    const expected = [1000, 1300, 1690, 2197, 2856, 3713, 4827, 6275, 8157, 10000, 10000];
    for (const delay of expected) {
      FakeWebSocket.latest.serverDrops();
      expectNewSocketAfter(delay);
    }
  });

  it('caps a large minimum at 10000 ms after a few attempts', () => {
    const { socket } = start(0.999);
    expect([1, 2, 3, 4, 5].map((attempt) => socket.reconnectDelay(attempt))).toEqual([4996, 6495, 8443, 10000, 10000]);
  });

  it('gives up a socket that does not open within 4000 ms and tries again after the delay', () => {
    const { events } = start(0.5);
    const first = FakeWebSocket.latest;
    vi.advanceTimersByTime(3999);
    expect(first.closeCalls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(first.closeCalls).toBe(1);
    expect(first.onopen).toBeNull();
    expect(events).toEqual(['error Websocket did not open within 4000 ms']);
    const second = expectNewSocketAfter(3000);
    second.serverOpens();
    // A late open of the abandoned socket changes nothing.
    first.serverOpens();
    expect(events).toEqual(['error Websocket did not open within 4000 ms', 'open']);
  });

  it('does not time out a socket that opened in time', () => {
    start(0);
    FakeWebSocket.latest.serverOpens();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.latest.closeCalls).toBe(0);
  });

  it('resets the backoff only after a connection stayed up 5000 ms', () => {
    const { events } = start(0);
    FakeWebSocket.latest.serverDrops();
    expectNewSocketAfter(1000);
    FakeWebSocket.latest.serverDrops();
    expectNewSocketAfter(1300);
    // Up for 4999 ms: too short, the next wait keeps growing.
    FakeWebSocket.latest.serverOpens();
    vi.advanceTimersByTime(4999);
    FakeWebSocket.latest.serverDrops();
    expectNewSocketAfter(1690);
    // Up for 5000 ms: the next wait starts again from the minimum.
    FakeWebSocket.latest.serverOpens();
    vi.advanceTimersByTime(5000);
    FakeWebSocket.latest.serverDrops();
    expectNewSocketAfter(1000);
    expect(events).toEqual(['open', 'close 1006', 'reopen', 'close 1006']);
  });

  it('reports socket errors', () => {
    const { events } = start(0);
    FakeWebSocket.latest.networkError();
    expect(events).toEqual([`error Websocket error on ${url}`]);
  });

  it('stops for good on close', () => {
    const { socket, events } = start(0);
    FakeWebSocket.latest.serverOpens();
    socket.close();
    expect(FakeWebSocket.latest.closeCalls).toBe(1);
    expect(socket.isOpen).toBe(false);
    expect(socket.send('x')).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(events).toEqual(['open', 'close 1000']);
  });

  it('cancels a pending reconnect on close', () => {
    const { socket } = start(0);
    FakeWebSocket.latest.serverDrops();
    socket.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });

  it('reports a URL the WebSocket refuses and does not retry it', () => {
    const events: string[] = [];
    const socket = new ReconnectingWebSocket(
      'nonsense',
      class {
        constructor() {
          throw new SyntaxError('bad url');
        }
      } as unknown as typeof FakeWebSocket,
    );
    socket.on('error', ({ error }) => events.push(error.message));
    socket.start();
    vi.advanceTimersByTime(60_000);
    expect(events).toEqual(['Cannot open websocket nonsense']);
  });
});
