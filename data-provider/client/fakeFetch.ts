/**
 * Test support (not part of the public surface): a fetch stand-in that records every call and
 * answers from routes, so client tests can assert what went over the wire.
 */
import type { FetchLike } from './fetchWithRetry';

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The body as sent (a string for JSON and forms). */
  body: unknown;
  signal?: AbortSignal;
}

export type Reply = (call: RecordedCall) => Response | Promise<Response>;

interface Route {
  method: string;
  match: string | RegExp;
  reply: Reply;
  remaining: number;
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/fhir+json', ...headers },
  });
}

export function textResponse(text: string, status = 200, contentType = 'text/plain'): Response {
  return new Response(text, { status, headers: { 'content-type': contentType } });
}

/** An unsigned JWT with the given claims: the client reads claims, it never checks signatures. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.signature`;
}

export class FakeFetch {
  readonly calls: RecordedCall[] = [];
  private readonly routes: Route[] = [];

  /** Answers matching requests; `times` limits how often (later routes then take over). */
  on(method: string, match: string | RegExp, reply: Reply | Response, times = Infinity): this {
    const replyFn: Reply = reply instanceof Response ? () => reply.clone() : reply;
    this.routes.push({ method, match, reply: replyFn, remaining: times });
    return this;
  }

  once(method: string, match: string | RegExp, reply: Reply | Response): this {
    return this.on(method, match, reply, 1);
  }

  callsTo(method: string, match: string | RegExp): RecordedCall[] {
    return this.calls.filter((call) => call.method === method && matches(call.url, match));
  }

  readonly fetch: FetchLike = (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    const call: RecordedCall = {
      url,
      method: init.method ?? 'GET',
      headers,
      body: init.body,
      signal: init.signal ?? undefined,
    };
    this.calls.push(call);
    const signal = init.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const route = this.routes.find((r) => r.remaining > 0 && r.method === call.method && matches(url, r.match));
    if (!route) return Promise.reject(new Error(`FakeFetch: no route for ${call.method} ${url}`));
    route.remaining--;
    const answer = Promise.resolve().then(() => route.reply(call));
    if (!signal) return answer;
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      answer.then(resolve, reject);
    });
  };
}

function matches(url: string, match: string | RegExp): boolean {
  return typeof match === 'string' ? url === match || url.endsWith(match) : match.test(url);
}

/** A promise and its resolver, to hold an answer back until the test releases it. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
