import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import type { BotFetchAnswer, BotFetchRequest } from './botSandbox';

/** Largest response body a bot's fetch reads; a larger one fails the fetch (the bot's memory is small too). */
export const maxBotFetchBytes = 5 * 1024 * 1024;
/** Largest request body a bot may send. */
export const maxBotFetchRequestBytes = 5 * 1024 * 1024;
const maxRedirects = 5;

/**
 * Addresses a bot may not reach unless an operator listed the `host:port` in BOT_FETCH_ALLOWED_HOSTS:
 * this machine, private networks, link-local (cloud metadata lives at 169.254.169.254 and
 * fd00:ec2::254), carrier-grade NAT, multicast and reserved ranges.
 */
const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** An IPv4 address hidden in an IPv6 one (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::`, compatible `::a.b.c.d`). */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|64:ff9b::|::)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1], 16);
  const low = parseInt(hex[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** True when the address is one a bot must not reach on its own (see `blocked`). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

/** `host:port` as BOT_FETCH_ALLOWED_HOSTS names it: lower case, IPv6 without brackets, the default port filled in. */
export function hostPortOf(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${host}:${port}`;
}

class BotFetchError extends Error {}

/** Where a request may go: the address the connection must use (checked now, so DNS cannot change it later). */
async function checkedAddress(url: URL, allowed: ReadonlySet<string>): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BotFetchError(`fetch: only http and https URLs, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new BotFetchError('fetch: URLs with credentials are not allowed');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const listed = allowed.has(hostPortOf(url));
  const addresses = isIP(hostname)
    ? [{ address: hostname, family: isIP(hostname) }]
    : await lookup(hostname, { all: true, verbatim: true }).catch(() => {
        throw new BotFetchError(`fetch: cannot resolve ${hostname}`);
      });
  if (addresses.length === 0) throw new BotFetchError(`fetch: cannot resolve ${hostname}`);
  // Every address of the name must be public: a name that resolves to both is refused.
  if (!listed && addresses.some((entry) => isInternalAddress(entry.address))) {
    throw new BotFetchError(
      `fetch: ${url.host} is a loopback, private, link-local or reserved address; ` +
        'an administrator may allow it in BOT_FETCH_ALLOWED_HOSTS',
    );
  }
  return addresses[0];
}

/** Request headers a bot may not set (the connection is the server's to manage). */
const forbiddenHeaders = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'proxy-authorization',
  'te',
  'trailer',
]);

function send(
  url: URL,
  target: { address: string; family: number },
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal,
): Promise<{ response: IncomingMessage; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        signal,
        // The connection goes to the address that was checked, whatever DNS says now.
        lookup: (_host, options, callback) => {
          const done = callback as (...values: unknown[]) => void;
          if ((options as { all?: boolean }).all) done(null, [target]);
          else done(null, target.address, target.family);
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBotFetchBytes) {
            request.destroy(new BotFetchError(`fetch: the response is larger than ${maxBotFetchBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ response, bytes: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * A bot's `fetch`, made by the server: http(s) only, to public addresses (or those listed in
 * BOT_FETCH_ALLOWED_HOSTS), following at most five redirects, each checked like the first. The
 * answer's body is read whole, up to `maxBotFetchBytes`.
 */
export async function botFetch(
  input: BotFetchRequest,
  options: { allowedHosts: readonly string[]; signal: AbortSignal },
): Promise<BotFetchAnswer> {
  const allowed = new Set(options.allowedHosts);
  if (!input || typeof input.url !== 'string') throw new BotFetchError('fetch: a URL is needed');
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new BotFetchError(`fetch: invalid URL ${input.url}`);
  }
  let method = typeof input.method === 'string' ? input.method.toUpperCase() : 'GET';
  if (!/^[A-Z]{1,16}$/.test(method) || method === 'CONNECT' || method === 'TRACE') {
    throw new BotFetchError(`fetch: method ${method} is not allowed`);
  }
  const headers: Record<string, string> = {};
  for (const pair of Array.isArray(input.headers) ? input.headers : []) {
    const name = String(pair[0]).toLowerCase();
    if (forbiddenHeaders.has(name)) continue;
    headers[name] = String(pair[1]);
  }
  let body = input.body ? Buffer.from(String(input.body.latin1), 'latin1') : undefined;
  if (body && body.length > maxBotFetchRequestBytes) {
    throw new BotFetchError(`fetch: the request body is larger than ${maxBotFetchRequestBytes} bytes`);
  }
  if (body && (method === 'GET' || method === 'HEAD')) throw new BotFetchError(`fetch: a ${method} has no body`);
  for (let redirects = 0; ; redirects++) {
    const target = await checkedAddress(url, allowed);
    const { response, bytes } = await send(url, target, method, headers, body, options.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(status) && location) {
      if (redirects >= maxRedirects) throw new BotFetchError(`fetch: more than ${maxRedirects} redirects`);
      const next = new URL(location, url);
      // Credentials meant for one host are not handed to another.
      if (next.origin !== url.origin) delete headers.authorization;
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
      }
      url = next;
      continue;
    }
    const answerHeaders: [string, string][] = [];
    for (let i = 0; i < response.rawHeaders.length; i += 2) {
      answerHeaders.push([response.rawHeaders[i].toLowerCase(), response.rawHeaders[i + 1]]);
    }
    return {
      url: url.toString(),
      status,
      statusText: response.statusMessage ?? '',
      redirected: redirects > 0,
      headers: answerHeaders,
      base64: bytes.toString('base64'),
    };
  }
}
