import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  /** The request body as text (the batch Bundle of an automatic batch). */
  body: string;
}

/**
 * A plain HTTP proxy in front of the test server that writes down every request it forwards: what
 * the server was actually asked, whatever the client believes it sent.
 */
export interface CountingProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Answers the next `count` requests itself with `status` (an OperationOutcome), without forwarding them. */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  let failures = { count: 0, status: 503 };
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: incoming.method ?? 'GET', path: incoming.url ?? '/', body: body.toString('utf8') });
      if (failures.count > 0) {
        failures.count--;
        outgoing.writeHead(failures.status, { 'content-type': 'application/fhir+json' });
        outgoing.end(
          JSON.stringify({
            resourceType: 'OperationOutcome',
            issue: [{ severity: 'error', code: 'transient', details: { text: `Proxy answered ${failures.status}` } }],
          }),
        );
        return;
      }
      const proxied = forward(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: upstream.host },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      proxied.on('error', () => {
        outgoing.writeHead(502);
        outgoing.end();
      });
      proxied.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    failNext: (count, status) => {
      failures = { count, status };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
