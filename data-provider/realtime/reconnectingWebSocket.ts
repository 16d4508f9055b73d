import { TypedEventEmitter } from './typedEventEmitter';
import { WEBSOCKET_OPEN, type WebSocketConstructor, type WebSocketLike } from './webSocketLike';
import {
  CONNECTION_TIMEOUT_MS,
  MAX_RECONNECT_DELAY_MS,
  MIN_RECONNECT_DELAY_LOWER_MS,
  MIN_RECONNECT_DELAY_UPPER_MS,
  MIN_UPTIME_MS,
  RECONNECT_DELAY_GROWTH,
} from './websocketConstants';

export interface ReconnectingWebSocketEvents {
  /** The socket opened, the first time or after a reconnect. */
  open: { reconnected: boolean };
  /** An open socket closed; a reconnect follows unless close() was called. */
  close: { code?: number; reason?: string };
  message: { data: string };
  error: { error: Error };
}

/**
 * One websocket that keeps itself connected (spec §9): a socket that does not open within the
 * connection timeout is abandoned; after a drop or a failed attempt it waits a growing delay
 * (×1.3 per attempt from a random minimum of 1–5 s, at most 10 s) and tries again; the delay
 * returns to its minimum only once a connection has stayed up for the minimum uptime.
 */
export class ReconnectingWebSocket extends TypedEventEmitter<ReconnectingWebSocketEvents> {
  private socket: WebSocketLike | undefined;
  /** Failed or short-lived attempts since the last connection that lasted. */
  private attempts = 0;
  private started = false;
  private hasOpened = false;
  private closedForGood = false;
  private readonly minReconnectDelay: number;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private uptimeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly url: string,
    private readonly WebSocketImpl: WebSocketConstructor,
  ) {
    super();
    this.minReconnectDelay =
      MIN_RECONNECT_DELAY_LOWER_MS + Math.random() * (MIN_RECONNECT_DELAY_UPPER_MS - MIN_RECONNECT_DELAY_LOWER_MS);
  }

  /** Opens the first connection; separate from the constructor so that listeners can be attached first. */
  start(): void {
    if (this.started || this.closedForGood) return;
    this.started = true;
    this.connect();
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WEBSOCKET_OPEN;
  }

  /** Sends when open; answers false otherwise (the caller re-sends what matters on the next open). */
  send(data: string): boolean {
    if (!this.socket || !this.isOpen) return false;
    this.socket.send(data);
    return true;
  }

  /** Wait in whole milliseconds before reconnect attempt number `attempt` (1 for the first). */
  reconnectDelay(attempt: number): number {
    return Math.round(
      Math.min(MAX_RECONNECT_DELAY_MS, this.minReconnectDelay * RECONNECT_DELAY_GROWTH ** (attempt - 1)),
    );
  }

  /** Closes the socket and stops reconnecting. */
  close(): void {
    this.closedForGood = true;
    clearTimeout(this.reconnectTimer);
    const wasOpen = this.isOpen;
    this.abandonSocket();
    if (wasOpen) this.emit('close', { code: 1000, reason: 'closed by client' });
  }

  private connect(): void {
    let socket: WebSocketLike;
    try {
      socket = new this.WebSocketImpl(this.url);
    } catch (cause) {
      // An invalid URL throws synchronously; retrying the same URL can never succeed.
      this.closedForGood = true;
      this.emit('error', { error: new Error(`Cannot open websocket ${this.url}`, { cause }) });
      return;
    }
    this.socket = socket;
    let opened = false;
    this.connectTimer = setTimeout(() => {
      this.emit('error', { error: new Error(`Websocket did not open within ${CONNECTION_TIMEOUT_MS} ms`) });
      this.abandonSocket();
      this.scheduleReconnect();
    }, CONNECTION_TIMEOUT_MS);

    socket.onopen = () => {
      clearTimeout(this.connectTimer);
      opened = true;
      this.uptimeTimer = setTimeout(() => {
        this.attempts = 0;
      }, MIN_UPTIME_MS);
      const reconnected = this.hasOpened;
      this.hasOpened = true;
      this.emit('open', { reconnected });
    };
    socket.onmessage = (event) => {
      this.emit('message', { data: typeof event.data === 'string' ? event.data : String(event.data) });
    };
    socket.onerror = () => {
      // The event carries no detail in browsers; the close that follows drives the reconnect.
      this.emit('error', { error: new Error(`Websocket error on ${this.url}`) });
    };
    socket.onclose = (event) => {
      this.abandonSocket();
      if (opened) this.emit('close', { code: event.code, reason: event.reason });
      this.scheduleReconnect();
    };
  }

  /** Detaches and closes the current socket, so that its late events cannot reach us. */
  private abandonSocket(): void {
    clearTimeout(this.connectTimer);
    clearTimeout(this.uptimeTimer);
    this.connectTimer = undefined;
    this.uptimeTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    if (!socket) return;
    socket.onopen = socket.onclose = socket.onmessage = socket.onerror = null;
    try {
      socket.close();
    } catch {
      // Closing a socket that never connected may throw in some implementations; it is gone either way.
    }
  }

  private scheduleReconnect(): void {
    if (this.closedForGood) return;
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => this.connect(), this.reconnectDelay(this.attempts));
  }
}
