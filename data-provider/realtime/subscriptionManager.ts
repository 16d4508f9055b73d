import type { Bundle, Resource } from '@medplum/fhirtypes';

import { ReconnectingWebSocket } from './reconnectingWebSocket';
import type { SubscriptionBackend } from './subscriptionBackend';
import {
  bindWithTokenMessage,
  parseSubscriptionMessage,
  PING_MESSAGE,
  unbindFromTokenMessage,
} from './subscriptionMessage';
import { TypedEventEmitter } from './typedEventEmitter';
import { globalWebSocket, type WebSocketConstructor } from './webSocketLike';
import { PING_INTERVAL_MS, UNSUBSCRIBE_DELAY_MS } from './websocketConstants';

/** One notification, delivered to the listeners of the criteria it matched. */
export interface SubscriptionNotification {
  criteria: string;
  subscriptionId: string;
  bundle: Bundle;
  /** The resource that changed (the bundle's second entry), when the server sent it. */
  resource: Resource | undefined;
}

export type SubscriptionListener = (notification: SubscriptionNotification) => void;

export interface SubscriptionManagerEvents {
  /** The socket opened (also after a reconnect). */
  connect: { reconnected: boolean };
  /** The socket closed; it reconnects by itself unless the manager was closed. */
  disconnect: { code?: number; reason?: string };
  /** Something failed; `criteria` names the subscription concerned, when one is. */
  error: { error: Error; criteria?: string };
  /** Every notification, whichever criteria it belongs to. */
  message: SubscriptionNotification;
  /** The server confirmed that a subscription is bound to the socket. */
  bound: { criteria: string; subscriptionId: string };
  /** The server reported a subscription alive. */
  heartbeat: { subscriptionId: string | undefined };
}

export interface SubscriptionManagerOptions {
  backend: SubscriptionBackend;
  /** Defaults to the global WebSocket; Node 20 has none, so pass one (e.g. from 'ws') there. */
  WebSocket?: WebSocketConstructor;
}

interface CriteriaEntry {
  readonly criteria: string;
  readonly listeners: Set<SubscriptionListener>;
  subscriptionId?: string;
  token?: string;
  unsubscribeTimer?: ReturnType<typeof setTimeout>;
  /** Set once the entry is given up, so that answers still on their way are dropped. */
  removed: boolean;
}

/**
 * Realtime notifications over the server's subscription socket (Medplum-compatible protocol).
 *
 * For each criteria string it creates one Subscription, however many listeners want it, gets a
 * binding token for it and binds it on the one socket all subscriptions share. It pings every
 * 5 s; after a reconnect it fetches fresh tokens (they expire) and binds every subscription
 * again. The last listener leaving unbinds after a delay, which a new listener cancels; when no
 * subscription is left the socket is closed until the next listener.
 */
export class SubscriptionManager extends TypedEventEmitter<SubscriptionManagerEvents> {
  private readonly backend: SubscriptionBackend;
  private readonly WebSocketImpl: WebSocketConstructor;
  private readonly entries = new Map<string, CriteriaEntry>();
  private socket: ReconnectingWebSocket | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(options: SubscriptionManagerOptions) {
    super();
    const WebSocketImpl = options.WebSocket ?? globalWebSocket();
    if (!WebSocketImpl) throw new Error('No WebSocket implementation: pass options.WebSocket');
    this.backend = options.backend;
    this.WebSocketImpl = WebSocketImpl;
  }

  /** Starts (or joins) the subscription for `criteria`; answers a function that removes the listener. */
  addListener(criteria: string, listener: SubscriptionListener): () => void {
    if (this.closed) throw new Error('SubscriptionManager is closed');
    let entry = this.entries.get(criteria);
    if (!entry) {
      entry = { criteria, listeners: new Set(), removed: false };
      this.entries.set(criteria, entry);
      void this.startSubscription(entry);
    }
    clearTimeout(entry.unsubscribeTimer);
    entry.unsubscribeTimer = undefined;
    entry.listeners.add(listener);
    return () => this.removeListener(criteria, listener);
  }

  removeListener(criteria: string, listener: SubscriptionListener): void {
    const entry = this.entries.get(criteria);
    if (!entry || !entry.listeners.delete(listener) || entry.listeners.size > 0) return;
    entry.unsubscribeTimer = setTimeout(() => this.dropEntry(entry), UNSUBSCRIBE_DELAY_MS);
  }

  /** Criteria that currently have a subscription (including those waiting out the unsubscribe delay). */
  getCriteria(): string[] {
    return [...this.entries.keys()];
  }

  getSubscriptionId(criteria: string): string | undefined {
    return this.entries.get(criteria)?.subscriptionId;
  }

  /** Closes the socket and forgets every subscription; the manager cannot be used afterwards. */
  close(): void {
    this.closed = true;
    for (const entry of this.entries.values()) {
      clearTimeout(entry.unsubscribeTimer);
      entry.removed = true;
    }
    this.entries.clear();
    this.closeSocket();
  }

  private async startSubscription(entry: CriteriaEntry): Promise<void> {
    try {
      const { id } = await this.backend.createSubscription(entry.criteria);
      entry.subscriptionId = id;
    } catch (cause) {
      // Forget the criteria, so that the next listener for it tries again.
      this.forget(entry);
      this.fail(new Error(`Failed to create subscription for ${entry.criteria}`, { cause }), entry);
      return;
    }
    await this.fetchTokenAndBind(entry);
  }

  private async fetchTokenAndBind(entry: CriteriaEntry): Promise<void> {
    if (entry.removed || !entry.subscriptionId) return;
    let token: string;
    let websocketUrl: string;
    try {
      ({ token, websocketUrl } = await this.backend.getBindingToken(entry.subscriptionId));
    } catch (cause) {
      this.fail(new Error('Failed to get token', { cause }), entry);
      return;
    }
    if (!token) return this.fail(new Error('Failed to get token'), entry);
    if (!websocketUrl) return this.fail(new Error('Failed to get URL from $get-ws-binding-token'), entry);
    if (entry.removed || this.closed) return;
    entry.token = token;
    const socket = this.ensureSocket(websocketUrl);
    // Not yet open: the open handler binds every entry that has a token.
    if (socket.isOpen) socket.send(bindWithTokenMessage(token));
  }

  private ensureSocket(websocketUrl: string): ReconnectingWebSocket {
    if (this.socket) return this.socket;
    const socket = new ReconnectingWebSocket(websocketUrl, this.WebSocketImpl);
    socket.on('open', ({ reconnected }) => this.handleOpen(socket, reconnected));
    socket.on('close', (event) => {
      this.stopPing();
      this.emit('disconnect', event);
    });
    socket.on('message', ({ data }) => this.handleMessage(data));
    socket.on('error', ({ error }) => this.emit('error', { error }));
    this.socket = socket;
    socket.start();
    return socket;
  }

  private handleOpen(socket: ReconnectingWebSocket, reconnected: boolean): void {
    this.stopPing();
    this.pingTimer = setInterval(() => socket.send(PING_MESSAGE), PING_INTERVAL_MS);
    this.emit('connect', { reconnected });
    for (const entry of this.entries.values()) {
      if (reconnected) void this.fetchTokenAndBind(entry);
      else if (entry.token) socket.send(bindWithTokenMessage(entry.token));
    }
  }

  private handleMessage(data: string): void {
    const message = parseSubscriptionMessage(data);
    switch (message.kind) {
      case 'pong':
      case 'ignored':
        return;
      case 'error':
        return this.emit('error', { error: message.error });
      case 'heartbeat':
        return this.emit('heartbeat', { subscriptionId: message.subscriptionId });
      case 'handshake': {
        const entry = this.entryFor(message.subscriptionId);
        if (entry) this.emit('bound', { criteria: entry.criteria, subscriptionId: message.subscriptionId });
        return;
      }
      case 'notification': {
        const entry = this.entryFor(message.subscriptionId);
        if (!entry) return;
        const notification: SubscriptionNotification = {
          criteria: entry.criteria,
          subscriptionId: message.subscriptionId,
          bundle: message.bundle,
          resource: message.resource,
        };
        for (const listener of [...entry.listeners]) {
          try {
            listener(notification);
          } catch (cause) {
            // One failing screen must not keep the notification from the others.
            this.fail(new Error(`A listener for ${entry.criteria} failed`, { cause }), entry);
          }
        }
        this.emit('message', notification);
      }
    }
  }

  private entryFor(subscriptionId: string): CriteriaEntry | undefined {
    for (const entry of this.entries.values()) {
      if (entry.subscriptionId === subscriptionId) return entry;
    }
    return undefined;
  }

  private dropEntry(entry: CriteriaEntry): void {
    this.forget(entry);
    if (entry.token) this.socket?.send(unbindFromTokenMessage(entry.token));
    // Nothing left to listen to: the server closes a socket without bindings after a minute, and
    // reconnecting would only open another one to be closed; the next listener opens a new socket.
    if (this.entries.size === 0) this.closeSocket();
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.stopPing();
    socket?.close();
  }

  private forget(entry: CriteriaEntry): void {
    entry.removed = true;
    if (this.entries.get(entry.criteria) === entry) this.entries.delete(entry.criteria);
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  private fail(error: Error, entry: CriteriaEntry): void {
    this.emit('error', { error, criteria: entry.criteria });
  }
}
