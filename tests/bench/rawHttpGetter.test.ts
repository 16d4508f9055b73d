import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rawHttpGetter, type RawHttpGetter } from './rawHttpGetter';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

async function listen(server: http.Server | net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function track(getter: RawHttpGetter): RawHttpGetter {
  closers.push(() => getter.close());
  return getter;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rawHttpGetter', () => {
  it('answers each status only once the whole Content-Length body has arrived', async () => {
    let lastPartSent = 0;
    const server = http.createServer(async (request, response) => {
      const status = request.url === '/missing' ? 404 : 200;
      response.writeHead(status, { 'content-length': '10', 'content-type': 'text/plain' });
      response.write('01234');
      await pause(50);
      lastPartSent = performance.now();
      response.end('56789');
    });
    const getter = track(rawHttpGetter(await listen(server), 1));
    expect(await getter.get('/found')).toBe(200);
    expect(lastPartSent).toBeGreaterThan(0);
    expect(performance.now()).toBeGreaterThanOrEqual(lastPartSent);
    expect(await getter.get('/missing')).toBe(404);
  });

  it('reads chunked bodies to their last chunk, whatever the packets', async () => {
    const server = http.createServer(async (_request, response) => {
      response.writeHead(201, { 'content-type': 'text/plain' });
      response.write('a'.repeat(3000));
      await pause(30);
      response.write('b');
      await pause(30);
      response.end();
    });
    const getter = track(rawHttpGetter(await listen(server), 1));
    const started = performance.now();
    expect(await getter.get('/')).toBe(201);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(await getter.get('/')).toBe(201);
  });

  it('sends its headers and keeps to its connections when more requests wait than it has', async () => {
    const sockets = new Set<unknown>();
    let inFlight = 0;
    let mostInFlight = 0;
    const seen: string[] = [];
    const server = http.createServer(async (request, response) => {
      sockets.add(request.socket);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      seen.push(`${request.url} ${request.headers.authorization} ${request.headers.host}`);
      await pause(10);
      inFlight--;
      response.end('ok');
    });
    const base = await listen(server);
    const getter = track(rawHttpGetter(base, 2, { authorization: 'Bearer t' }));
    const statuses = await Promise.all(Array.from({ length: 7 }, (_, i) => getter.get(`/r/${i}`)));
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(sockets.size).toBe(2);
    expect(mostInFlight).toBe(2);
    expect(seen.sort()).toEqual(Array.from({ length: 7 }, (_, i) => `/r/${i} Bearer t ${new URL(base).host}`).sort());
  });

  it('fails the request when the server closes the connection in the middle of an answer', async () => {
    const server = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly part');
        setTimeout(() => socket.destroy(), 20);
      });
    });
    const getter = track(rawHttpGetter(await listen(server), 1));
    await expect(getter.get('/')).rejects.toThrow(/closed by the server/);
    // A broken connection fails every later request at once instead of hanging.
    await expect(getter.get('/')).rejects.toThrow(/closed by the server/);
  });

  it.each([
    ['not HTTP', 'HELLO\r\n\r\n', /Not an HTTP\/1\.1 answer/],
    ['no length', 'HTTP/1.1 200 OK\r\nconnection: keep-alive\r\n\r\n', /neither Content-Length nor chunked/],
    ['more than its length', 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nabc', /More bytes than the answer held/],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', /malformed chunk size/],
  ])('refuses an answer that is %s', async (_label, answer, message) => {
    const server = net.createServer((socket) => socket.once('data', () => socket.write(answer)));
    const getter = track(rawHttpGetter(await listen(server), 1));
    await expect(getter.get('/')).rejects.toThrow(message);
  });
});
