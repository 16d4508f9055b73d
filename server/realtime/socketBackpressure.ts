/** What a socket tells about the bytes it has not written yet (`ws`'s WebSocket). */
export interface BufferingSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string): void;
  terminate(): void;
}

/**
 * Sends `data` unless the socket already holds more than `maxBufferedBytes` its client has not
 * taken: then the socket is ended at once (terminated — a close frame would wait behind the same
 * backlog). A client that stops reading must not make the server keep every notification meant for
 * it. Answers whether the data was sent.
 */
export function sendWithinBacklog(socket: BufferingSocket, data: string, maxBufferedBytes: number): boolean {
  if (socket.readyState !== socket.OPEN) return false;
  // The backlog before this message: one large notification to a client that reads is not a backlog.
  if (socket.bufferedAmount > maxBufferedBytes) {
    socket.terminate();
    return false;
  }
  socket.send(data);
  return true;
}
