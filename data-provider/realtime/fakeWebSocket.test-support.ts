import type { WebSocketLike } from './webSocketLike';

/**
 * Test double for WebSocket: records what is sent and lets a test open, feed, drop or break the
 * connection by hand. Every instance is kept, so tests can count connections.
 */
export class FakeWebSocket implements WebSocketLike {
  static instances: FakeWebSocket[] = [];

  static reset(): void {
    FakeWebSocket.instances = [];
  }

  static get latest(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('No FakeWebSocket was created');
    return socket;
  }

  readyState = 0;
  readonly sent: string[] = [];
  closeCalls = 0;
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== 1) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }

  /** Like a real socket, closing reports a close event to whoever still listens. */
  close(): void {
    this.closeCalls += 1;
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code: 1000, reason: '' });
  }

  /** The messages sent, parsed. */
  get sentMessages(): unknown[] {
    return this.sent.map((data) => JSON.parse(data));
  }

  serverOpens(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  serverSends(message: unknown): void {
    this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) });
  }

  serverDrops(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: 'gone' });
  }

  networkError(): void {
    this.onerror?.({});
  }
}
