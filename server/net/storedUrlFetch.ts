import { OutboundAddressError } from './outboundAddress';
import { outboundRequest, OutboundRequestError } from './outboundRequest';

/**
 * The server's own GET of a URL a project stored (a ClientApplication's `jwksUri`, its identity
 * provider's `userInfoUrl`), answered as JSON. A project admin chooses that URL, so it goes through
 * the outbound address rule bots' `fetch` follows (outboundAddress.ts: no loopback, private,
 * link-local or reserved address, checked on the resolved address and on every redirect, unless
 * listed in BOT_FETCH_ALLOWED_HOSTS), and is bounded in time and size.
 *
 * Every failure — refused address, no connection, timeout, a status other than 200, an answer too
 * large or not JSON — is one StoredUrlFetchError: callers answer all of them with one message, so
 * their answers cannot be used to scan ports or tell hosts apart. Its `reason` is for the server's
 * log only.
 */

export const storedUrlTimeoutMs = 5_000;
export const storedUrlMaxBytes = 256 * 1024;
const storedUrlMaxRedirects = 3;

export class StoredUrlFetchError extends Error {
  constructor(readonly reason: string) {
    super('The stored URL could not be fetched');
  }
}

export interface StoredUrlFetchOptions {
  allowedHosts: readonly string[];
  /** Sent with the request (`authorization` is dropped if a redirect leaves the origin). */
  headers?: Record<string, string>;
  timeoutMs?: number;
  maxBytes?: number;
}

/** GET `address` and answer its JSON body; a StoredUrlFetchError for anything but a 200 with JSON. */
export async function fetchStoredJson(address: string, options: StoredUrlFetchOptions): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new StoredUrlFetchError('not a URL');
  }
  let answer;
  try {
    answer = await outboundRequest(
      {
        url,
        method: 'GET',
        headers: { accept: 'application/json', ...lowerCaseNames(options.headers ?? {}) },
      },
      {
        allowedHosts: options.allowedHosts,
        signal: AbortSignal.timeout(options.timeoutMs ?? storedUrlTimeoutMs),
        maxResponseBytes: options.maxBytes ?? storedUrlMaxBytes,
        maxRedirects: storedUrlMaxRedirects,
      },
    );
  } catch (error) {
    if (error instanceof OutboundAddressError || error instanceof OutboundRequestError) {
      throw new StoredUrlFetchError(error.message);
    }
    throw new StoredUrlFetchError(`no answer: ${(error as Error).message}`);
  }
  if (answer.status !== 200) throw new StoredUrlFetchError(`status ${answer.status}`);
  try {
    return JSON.parse(answer.body.toString('utf8')) as unknown;
  } catch {
    throw new StoredUrlFetchError('the answer is not JSON');
  }
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
