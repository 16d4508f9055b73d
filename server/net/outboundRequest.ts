import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { outboundTarget, type OutboundTarget } from './outboundAddress';

/**
 * One HTTP request the server makes to a URL a project chose, under the outbound address rule
 * (outboundAddress.ts): the connection goes to the address that was checked, redirects are
 * followed by hand and each target is checked like the first, and the answer is read whole up to a
 * size limit. Used by bots' `fetch` (server/bots/botFetch.ts) and by the server's own fetches of
 * stored URLs (storedUrlFetch.ts).
 */

export interface OutboundRequest {
  url: URL;
  method: string;
  /** Lower-case names; `authorization` is dropped when a redirect leaves the origin. */
  headers: Record<string, string>;
  body?: Buffer;
}

export interface OutboundRequestOptions {
  /** `host:port` entries that may be reached although internal (BOT_FETCH_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Ends the request (and any redirect after it). */
  signal: AbortSignal;
  /** Largest answer body read; a larger one fails the request. */
  maxResponseBytes: number;
  maxRedirects: number;
}

export interface OutboundAnswer {
  /** Where the answer came from (after redirects). */
  url: URL;
  status: number;
  statusText: string;
  redirected: boolean;
  /** As received: lower-case names, in order. */
  headers: [string, string][];
  body: Buffer;
}

/** The request failed for a reason of its own (too many redirects, too large an answer). */
export class OutboundRequestError extends Error {}

function send(
  url: URL,
  target: OutboundTarget,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  signal: AbortSignal,
  maxBytes: number,
): Promise<{ response: IncomingMessage; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // Settles once; the connection is dropped without an error of its own (that one would go unheard).
    const fail = (error: Error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
      request.destroy();
    };
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
          if (settled) return;
          size += chunk.length;
          if (size > maxBytes) {
            fail(new OutboundRequestError(`the response is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (settled) return;
          settled = true;
          resolve({ response, bytes: Buffer.concat(chunks) });
        });
        response.on('error', fail);
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

/**
 * Sends the request and follows up to `maxRedirects` redirects (301/302 of a POST and 303 become a
 * GET without body), each target checked before it is connected to. Rejects with an
 * OutboundAddressError when a URL is refused, an OutboundRequestError for too many redirects or too
 * large an answer, and the network's own error otherwise (refused connection, abort).
 */
export async function outboundRequest(
  input: OutboundRequest,
  options: OutboundRequestOptions,
): Promise<OutboundAnswer> {
  const allowed = new Set(options.allowedHosts);
  let { url, method, body } = input;
  const headers = { ...input.headers };
  for (let redirects = 0; ; redirects++) {
    const target = await outboundTarget(url, allowed);
    const { response, bytes } = await send(
      url,
      target,
      method,
      headers,
      body,
      options.signal,
      options.maxResponseBytes,
    );
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(status) && location) {
      if (redirects >= options.maxRedirects)
        throw new OutboundRequestError(`more than ${options.maxRedirects} redirects`);
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
      url,
      status,
      statusText: response.statusMessage ?? '',
      redirected: redirects > 0,
      headers: answerHeaders,
      body: bytes,
    };
  }
}
