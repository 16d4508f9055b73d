/**
 * The part of the WebSocket API the realtime clients use. The browser's WebSocket and the `ws`
 * package both fit; Node 20 has no global WebSocket, so the constructor is always injectable.
 */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** readyState of an open socket, the same number in every WebSocket implementation. */
export const WEBSOCKET_OPEN = 1;

/** The global WebSocket where the platform has one (browsers, Node 22+), else undefined. */
export function globalWebSocket(): WebSocketConstructor | undefined {
  return (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
}
