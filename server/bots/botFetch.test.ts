import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { freePort } from '../../tests/integration/freePort';
import { createBot, executeBot } from './bots.test-support';

/**
 * A bot's fetch over HTTP: the server's BOT_FETCH_ALLOWED_HOSTS lists 127.0.0.1:{botFetchPort}
 * (tests/integration/serverSetup.ts); a second loopback server on another port is not listed.
 */
let token: string;
let listed: Server;
let unlisted: Server;
let listedPort: number;
let unlistedPort: number;
const received: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

function handle(request: IncomingMessage, response: ServerResponse) {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ method: request.method, url: request.url, headers: request.headers, body });
    if (request.url === '/redirect-out') {
      response.writeHead(302, { location: `http://127.0.0.1:${unlistedPort}/secret` }).end();
    } else if (request.url === '/redirect-in') {
      response.writeHead(303, { location: '/echo?after=redirect' }).end();
    } else if (request.url === '/huge') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const block = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 7; i++) response.write(block);
      response.end();
    } else {
      response
        .writeHead(request.url?.startsWith('/missing') ? 404 : 200, 'Custom Status', {
          'content-type': 'application/json',
          'x-answer': 'yes',
        })
        .end(JSON.stringify({ method: request.method, url: request.url, body, key: request.headers['x-key'] ?? null }));
    }
  });
}

async function listen(port: number): Promise<Server> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  token = (await registerProjectOwner('Fetching Clinic')).tokens.access_token;
  listedPort = inject('botFetchPort');
  unlistedPort = await freePort();
  listed = await listen(listedPort);
  unlisted = await listen(unlistedPort);
});

afterAll(async () => {
  await new Promise((resolve) => listed.close(resolve));
  await new Promise((resolve) => unlisted.close(resolve));
});

async function runFetch(call: string): Promise<unknown> {
  const botId = await createBot(
    token,
    `exports.handler = async (medplum, event) => {
       try { ${call} } catch (e) { return { refused: e.message }; }
     };`,
  );
  const answer = await executeBot(token, botId);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

describe('fetch in bots', () => {
  it('reaches a loopback host listed in BOT_FETCH_ALLOWED_HOSTS with method, headers and body', async () => {
    const body = await runFetch(`
      const response = await fetch('http://127.0.0.1:${listedPort}/echo?q=1', {
        method: 'POST', headers: { 'X-Key': 'k-1', 'Content-Type': 'application/json' }, body: JSON.stringify({ rx: 'é' }),
      });
      const missing = await fetch('http://127.0.0.1:${listedPort}/missing');
      return { ok: response.ok, status: response.status, statusText: response.statusText,
               answer: response.headers.get('X-Answer'), json: await response.json(),
               missing: { ok: missing.ok, status: missing.status, text: await missing.text() } };`);
    expect(body).toEqual({
      ok: true,
      status: 200,
      statusText: 'Custom Status',
      answer: 'yes',
      json: { method: 'POST', url: '/echo?q=1', body: '{"rx":"é"}', key: 'k-1' },
      missing: {
        ok: false,
        status: 404,
        text: JSON.stringify({ method: 'GET', url: '/missing', body: '', key: null }),
      },
    });
  });

  it('refuses loopback hosts that are not listed, before any connection', async () => {
    const before = received.length;
    for (const url of [
      `http://127.0.0.1:${unlistedPort}/secret`,
      `http://localhost:${listedPort}/echo`,
      `http://[::1]:${listedPort}/echo`,
      `http://127.0.0.2:${listedPort}/echo`,
      `http://0.0.0.0:${listedPort}/echo`,
      `http://[::ffff:127.0.0.1]:${listedPort}/echo`,
    ]) {
      const body = await runFetch(`await fetch('${url}'); return 'fetched';`);
      expect(body, url).toEqual({
        refused: expect.stringMatching(/loopback, private, link-local or reserved address/),
      });
    }
    expect(received.length).toBe(before);
  });

  it('checks every redirect like the first request, and follows the allowed ones', async () => {
    const out = (await runFetch(`await fetch('http://127.0.0.1:${listedPort}/redirect-out'); return 'followed';`)) as {
      refused?: string;
    };
    expect(out.refused).toMatch(/loopback, private, link-local or reserved address/);
    expect(received.some((request) => request.url === '/secret')).toBe(false);
    const within = await runFetch(`
      const response = await fetch('http://127.0.0.1:${listedPort}/redirect-in', { method: 'POST', body: 'x' });
      return { redirected: response.redirected, url: response.url, json: await response.json() };`);
    expect(within).toEqual({
      redirected: true,
      url: `http://127.0.0.1:${listedPort}/echo?after=redirect`,
      json: { method: 'GET', url: '/echo?after=redirect', body: '', key: null },
    });
  });

  it('refuses other schemes and caps the response size', async () => {
    expect(await runFetch(`await fetch('file:///etc/passwd'); return 'read';`)).toEqual({
      refused: 'fetch: only http and https URLs, not file:',
    });
    expect(await runFetch(`await fetch('not a url'); return 'read';`)).toMatchObject({
      refused: 'fetch: invalid URL not a url',
    });
    expect(await runFetch(`await fetch('http://127.0.0.1:${listedPort}/huge'); return 'read';`)).toEqual({
      refused: 'fetch: the response is larger than 5242880 bytes',
    });
  });
});
