import type { BotFetchAnswer, BotFetchRequest } from './botSandbox';
import { OutboundAddressError } from '../net/outboundAddress';
import { outboundRequest, OutboundRequestError } from '../net/outboundRequest';

// The address rule is the server's one for every project-chosen URL (server/net/outboundAddress.ts).
export { hostPortOf, isInternalAddress } from '../net/outboundAddress';

/** Largest response body a bot's fetch reads; a larger one fails the fetch (the bot's memory is small too). */
export const maxBotFetchBytes = 5 * 1024 * 1024;
/** Largest request body a bot may send. */
export const maxBotFetchRequestBytes = 5 * 1024 * 1024;
const maxRedirects = 5;

class BotFetchError extends Error {}

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

/**
 * A bot's `fetch`, made by the server: http(s) only, to public addresses (or those listed in
 * BOT_FETCH_ALLOWED_HOSTS), following at most five redirects, each checked like the first
 * (server/net/outboundRequest.ts). The answer's body is read whole, up to `maxBotFetchBytes`.
 */
export async function botFetch(
  input: BotFetchRequest,
  options: { allowedHosts: readonly string[]; signal: AbortSignal },
): Promise<BotFetchAnswer> {
  if (!input || typeof input.url !== 'string') throw new BotFetchError('fetch: a URL is needed');
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    throw new BotFetchError(`fetch: invalid URL ${input.url}`);
  }
  const method = typeof input.method === 'string' ? input.method.toUpperCase() : 'GET';
  if (!/^[A-Z]{1,16}$/.test(method) || method === 'CONNECT' || method === 'TRACE') {
    throw new BotFetchError(`fetch: method ${method} is not allowed`);
  }
  const headers: Record<string, string> = {};
  for (const pair of Array.isArray(input.headers) ? input.headers : []) {
    const name = String(pair[0]).toLowerCase();
    if (forbiddenHeaders.has(name)) continue;
    headers[name] = String(pair[1]);
  }
  const body = input.body ? Buffer.from(String(input.body.latin1), 'latin1') : undefined;
  if (body && body.length > maxBotFetchRequestBytes) {
    throw new BotFetchError(`fetch: the request body is larger than ${maxBotFetchRequestBytes} bytes`);
  }
  if (body && (method === 'GET' || method === 'HEAD')) throw new BotFetchError(`fetch: a ${method} has no body`);
  let answer;
  try {
    answer = await outboundRequest(
      { url, method, headers, body },
      {
        allowedHosts: options.allowedHosts,
        signal: options.signal,
        maxResponseBytes: maxBotFetchBytes,
        maxRedirects,
      },
    );
  } catch (error) {
    // The bot sees the rule's own reason, as `fetch: …`; network errors pass as they are.
    if (error instanceof OutboundAddressError || error instanceof OutboundRequestError) {
      throw new BotFetchError(`fetch: ${error.message}`);
    }
    throw error;
  }
  return {
    url: answer.url.toString(),
    status: answer.status,
    statusText: answer.statusText,
    redirected: answer.redirected,
    headers: answer.headers,
    base64: answer.body.toString('base64'),
  };
}
