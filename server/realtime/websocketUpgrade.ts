import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { WebSocketServer, type WebSocket } from 'ws';
import { outcomeOf } from '../fhir/fhirError';

/** Why an upgrade is refused before any socket is made: answered in HTTP, with an OperationOutcome. */
export interface UpgradeRefusal {
  status: number;
  code: OperationOutcomeIssue['code'];
  text: string;
  /** Seconds after which the client may try again (Retry-After). */
  retryAfterSeconds?: number;
}

/** A websocket path served on the HTTP server: `matches` picks its requests, `accept` gets each socket. */
export interface WebsocketRoute {
  matches(path: string): boolean;
  /**
   * Asked before the handshake: a refusal is answered in HTTP and no socket is made, which costs
   * the process nothing (a socket accepted and then closed is kept until its client answers).
   */
  refuse?(request: IncomingMessage, path: string): UpgradeRefusal | undefined;
  accept(socket: WebSocket, request: IncomingMessage, path: string): void;
  /** Largest message a client may send (the socket is closed with 1009 past it); 1 MB by default. */
  maxMessageBytes?: number;
}

/** Sockets above this size of one message are closed (1009): clients send small JSON commands. */
const defaultMaxMessageBytes = 1024 * 1024;

interface MountedRoute {
  matches(path: string): boolean;
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, path: string): void;
}

const routersByServer = new WeakMap<Server, MountedRoute[]>();

/**
 * Serves a websocket route on the HTTP server's `upgrade` event (`ws` in noServer mode). All routes
 * of one server share one listener, so that an upgrade no route wants is refused with a 404 rather
 * than left hanging. Answers the function that removes the route and closes its sockets.
 */
export function addWebsocketRoute(server: Server, route: WebsocketRoute): () => void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: route.maxMessageBytes ?? defaultMaxMessageBytes });
  let routes = routersByServer.get(server);
  if (!routes) {
    const list: MountedRoute[] = [];
    routes = list;
    routersByServer.set(server, list);
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // This listener runs outside any request handler: whatever throws here, or any error of the
      // socket left without a listener, would end the whole process. Anyone can send an upgrade.
      socket.on('error', () => socket.destroy());
      let path: string;
      try {
        path = new URL(request.url ?? '/', 'http://localhost').pathname;
      } catch {
        // An absolute-form target with a bad host (`GET http://[ HTTP/1.1`), say.
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      const match = list.find((candidate) => candidate.matches(path));
      if (!match) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      try {
        match.upgrade(request, socket, head, path);
      } catch (error) {
        console.error('websocket: upgrade failed', error);
        socket.destroy();
      }
    });
  }
  const wrapped: MountedRoute = {
    matches: (path) => route.matches(path),
    upgrade: (request, socket, head, path) => {
      const refusal = route.refuse?.(request, path);
      if (refusal) {
        socket.end(refusalResponse(refusal));
        return;
      }
      wss.handleUpgrade(request, socket, head, (client) => {
        // A frame that breaks the protocol (a reserved opcode, an oversized message) is emitted as
        // an 'error' on the socket, which ws then closes (1002, 1009); without a listener that
        // event would end the process. A route may listen too; this one only ends the socket.
        client.on('error', () => client.terminate());
        try {
          route.accept(client, request, path);
        } catch (error) {
          // A route's own failure ends its socket, not the process (the callback may run later).
          console.error('websocket: accepting a socket failed', error);
          client.close(1011, 'Internal server error');
        }
      });
    },
  };
  routes.push(wrapped);
  return () => {
    const list = routersByServer.get(server);
    if (list) list.splice(list.indexOf(wrapped), 1);
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

/** The HTTP answer of a refused upgrade (the connection ends with it). */
function refusalResponse(refusal: UpgradeRefusal): string {
  const body = JSON.stringify(outcomeOf([{ severity: 'error', code: refusal.code, details: { text: refusal.text } }]));
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'Connection: close',
    'Content-Type: application/fhir+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...(refusal.retryAfterSeconds === undefined ? [] : [`Retry-After: ${refusal.retryAfterSeconds}`]),
    '',
    body,
  ].join('\r\n');
}
