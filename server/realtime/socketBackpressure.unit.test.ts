import { describe, expect, it } from 'vitest';
import { sendWithinBacklog, type BufferingSocket } from './socketBackpressure';

/** A socket whose client reads nothing: everything sent stays in its buffer. */
class StalledSocket implements BufferingSocket {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  terminated = false;
  send(data: string): void {
    this.bufferedAmount += Buffer.byteLength(data);
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
}

describe('sendWithinBacklog', () => {
  it('ends a socket whose client stopped reading instead of keeping every notification for it', () => {
    const socket = new StalledSocket();
    const notification = 'x'.repeat(64 * 1024);
    let sent = 0;
    // A member subscribed to busy criteria, never reading: the server holds at most the limit and one message.
    for (let i = 0; i < 10_000 && sendWithinBacklog(socket, notification, 1024 * 1024); i++) sent++;
    expect(socket.terminated).toBe(true);
    expect(socket.bufferedAmount).toBeLessThanOrEqual(1024 * 1024 + notification.length);
    expect(sent).toBe(17);
    expect(sendWithinBacklog(socket, notification, 1024 * 1024)).toBe(false);
  });

  it('sends one large message to a client that reads', () => {
    const socket = new StalledSocket();
    expect(sendWithinBacklog(socket, 'x'.repeat(4 * 1024 * 1024), 1024 * 1024)).toBe(true);
    expect(socket.terminated).toBe(false);
  });
});
