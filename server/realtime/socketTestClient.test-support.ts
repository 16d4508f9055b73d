import WebSocket from 'ws';

/* eslint-disable @typescript-eslint/no-explicit-any -- socket messages of many shapes */

/** A websocket test client that queues every message, so that tests wait for events instead of sleeping. */
export class SocketTestClient {
  readonly messages: any[] = [];
  private waiters: { predicate: (message: any) => boolean; resolve: (message: any) => void }[] = [];
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      const waiter = this.waiters.find((candidate) => candidate.predicate(message));
      if (waiter) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      } else {
        this.messages.push(message);
      }
    });
  }

  static open(url: string): Promise<SocketTestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.once('open', () => resolve(new SocketTestClient(socket)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first queued or coming message that satisfies `predicate` (taken off the queue). */
  next(predicate: (message: any) => boolean = () => true, timeoutMs = 5000): Promise<any> {
    const index = this.messages.findIndex(predicate);
    if (index >= 0) return Promise.resolve(this.messages.splice(index, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = {
        predicate,
        resolve: (message: any) => {
          clearTimeout(timer);
          resolve(message);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`No matching socket message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Binds a token and waits for the handshake of its subscription. */
  async bind(token: string, subscriptionId: string): Promise<any> {
    this.send({ type: 'bind-with-token', payload: { token } });
    return this.next(
      (message) => statusOf(message)?.type === 'handshake' && subscriptionOf(message) === subscriptionId,
    );
  }

  /** The next event notification (of `subscriptionId` when given). */
  notification(subscriptionId?: string, timeoutMs = 5000): Promise<any> {
    return this.next(
      (message) =>
        statusOf(message)?.type === 'event-notification' &&
        (subscriptionId === undefined || subscriptionOf(message) === subscriptionId),
      timeoutMs,
    );
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

export function statusOf(message: any): any {
  return message?.resourceType === 'Bundle' ? message.entry?.[0]?.resource : undefined;
}

export function subscriptionOf(message: any): string | undefined {
  return statusOf(message)?.subscription?.reference?.split('/')[1];
}
