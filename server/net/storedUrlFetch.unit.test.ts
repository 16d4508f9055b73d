import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundAddressError, outboundTarget } from './outboundAddress';
import { outboundRequest, OutboundRequestError } from './outboundRequest';
import { fetchStoredJson, StoredUrlFetchError } from './storedUrlFetch';

/** The outbound address rule and the server's fetch of project-stored URLs, against loopback servers. */

const seen: { server: string; path?: string; authorization?: string }[] = [];
let listed: Server;
let unlisted: Server;
let listedUrl: string;
let unlistedUrl: string;
let allowedHosts: string[];

function handler(name: string) {
  return (request: IncomingMessage, response: ServerResponse) => {
    seen.push({ server: name, path: request.url, authorization: request.headers.authorization });
    const path = request.url ?? '/';
    if (path === '/slow') return; // never answers
    if (path === '/big') return response.writeHead(200).end(JSON.stringify({ x: 'y'.repeat(2048) }));
    if (path === '/redirect-unlisted') return response.writeHead(302, { location: `${unlistedUrl}landing` }).end();
    if (path === '/redirect-same') return response.writeHead(302, { location: '/json' }).end();
    if (path === '/loop') return response.writeHead(302, { location: '/loop' }).end();
    if (path === '/missing') return response.writeHead(404).end('{}');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: name }));
  };
}

async function start(name: string): Promise<[Server, string]> {
  const server = createServer(handler(name));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return [server, `http://127.0.0.1:${(server.address() as { port: number }).port}/`];
}

beforeAll(async () => {
  [listed, listedUrl] = await start('listed');
  [unlisted, unlistedUrl] = await start('unlisted');
  allowedHosts = [new URL(listedUrl).host];
});

afterAll(async () => {
  await new Promise((resolve) => listed.close(resolve));
  await new Promise((resolve) => unlisted.close(resolve));
});

async function failure(work: Promise<unknown>): Promise<StoredUrlFetchError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StoredUrlFetchError);
  return error as StoredUrlFetchError;
}

describe('outbound address rule', () => {
  it('refuses other schemes, credentials in the URL and internal names before connecting', async () => {
    const allowed = new Set<string>();
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'http://user:pw@example.com/']) {
      await expect(outboundTarget(new URL(url), allowed), url).rejects.toBeInstanceOf(OutboundAddressError);
    }
    await expect(outboundTarget(new URL('http://localhost:1/'), allowed)).rejects.toThrow(
      'an administrator may allow it in BOT_FETCH_ALLOWED_HOSTS',
    );
    await expect(outboundTarget(new URL('http://[fd00:ec2::254]/'), allowed)).rejects.toThrow('link-local');
  });

  it('lets a listed host:port through, and answers the address to connect to', async () => {
    expect(await outboundTarget(new URL('http://127.0.0.1:8123/x'), new Set(['127.0.0.1:8123']))).toEqual({
      address: '127.0.0.1',
      family: 4,
    });
    expect(await outboundTarget(new URL('https://93.184.216.34/'), new Set())).toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });
});

describe('fetchStoredJson', () => {
  it('reads the JSON of a listed address and sends the headers given', async () => {
    seen.length = 0;
    expect(await fetchStoredJson(`${listedUrl}json`, { allowedHosts, headers: { Authorization: 'Bearer t' } })).toEqual(
      {
        ok: 'listed',
      },
    );
    expect(seen).toEqual([{ server: 'listed', path: '/json', authorization: 'Bearer t' }]);
  });

  it('never connects to an unlisted loopback address, directly or by redirect', async () => {
    seen.length = 0;
    expect((await failure(fetchStoredJson(`${unlistedUrl}json`, { allowedHosts }))).reason).toMatch(/loopback/);
    expect((await failure(fetchStoredJson(`${listedUrl}redirect-unlisted`, { allowedHosts }))).reason).toMatch(
      /loopback/,
    );
    expect(seen.map((entry) => entry.server)).toEqual(['listed']);
  });

  it('follows a redirect within the listed host, a few times only', async () => {
    expect(await fetchStoredJson(`${listedUrl}redirect-same`, { allowedHosts })).toEqual({ ok: 'listed' });
    expect((await failure(fetchStoredJson(`${listedUrl}loop`, { allowedHosts }))).reason).toBe('more than 3 redirects');
  });

  it('is bounded in time and size, and wants a 200', async () => {
    const started = Date.now();
    expect((await failure(fetchStoredJson(`${listedUrl}slow`, { allowedHosts, timeoutMs: 300 }))).reason).toMatch(
      /^no answer/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await failure(fetchStoredJson(`${listedUrl}big`, { allowedHosts, maxBytes: 1024 }))).reason).toBe(
      'the response is larger than 1024 bytes',
    );
    expect((await failure(fetchStoredJson(`${listedUrl}missing`, { allowedHosts }))).reason).toBe('status 404');
    // One message for the caller whatever the reason.
    expect((await failure(fetchStoredJson('not a url', { allowedHosts }))).message).toBe(
      'The stored URL could not be fetched',
    );
  });
});

describe("outboundRequest (also under bots' fetch)", () => {
  it('fails an answer over the limit that arrives whole with its end: no truncated answer, no uncaught error', async () => {
    // Before, the limit's error was raised on a finished request (an uncaught exception in the server
    // process) and the answer resolved with the chunks read so far.
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      const answer = outboundRequest(
        { url: new URL(`${listedUrl}big`), method: 'GET', headers: {} },
        { allowedHosts, signal: AbortSignal.timeout(5_000), maxResponseBytes: 1024, maxRedirects: 0 },
      );
      await expect(answer).rejects.toBeInstanceOf(OutboundRequestError);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });
});
