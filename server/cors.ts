import type { FastifyInstance } from 'fastify';

/**
 * The paths a browser app on another origin calls with fetch: the FHIR API, the token endpoint and
 * the other OAuth2 calls a SMART app makes with its token, and the discovery documents. Not the
 * sign-in calls under /auth (only this server's own pages make them), the admin, storage or
 * websocket paths, nor the pages.
 */
const corsPrefixes = ['/fhir/', '/.well-known/'];
const corsPaths = new Set(['/fhir/R4', '/oauth2/token', '/oauth2/userinfo', '/oauth2/revoke', '/oauth2/logout']);

/**
 * Where a browser client sends `credentials: 'include'`: Medplum's client does on the token request.
 * The browser refuses `*` for such a request, so these answer the caller's own origin and allow
 * credentials. This server sets and reads no cookie there (a refresh is authorised by its token and
 * PKCE or the client's secret in the body), so the credentials a browser might add carry nothing.
 */
const credentialedPaths = new Set(['/oauth2/token']);

function isCorsPath(path: string): boolean {
  return corsPaths.has(path) || corsPrefixes.some((prefix) => path.startsWith(prefix));
}

/** What a cross-origin request may send: the FHIR and OAuth2 request headers clients use. */
const allowedHeaders = [
  'authorization',
  'content-type',
  'accept',
  'if-match',
  'if-none-match',
  'if-none-exist',
  'if-modified-since',
  'prefer',
  'x-medplum',
].join(', ');
const allowedMethods = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** What its script may read of an answer beyond the CORS-safelisted headers (versions, new ids, paging). */
const exposedHeaders = ['etag', 'location', 'content-location', 'last-modified', 'www-authenticate'].join(', ');
const preflightMaxAgeSeconds = 600;

/**
 * CORS for SMART apps and other browser clients served from their own origin (CapabilityStatement
 * `rest.security.cors: true`). Every origin may call, without credentials (`*`; the token endpoint
 * with them, see `credentialedPaths`): this API authenticates only by the bearer token a request
 * carries, never by a cookie or anything else a browser adds by itself, so a page of another origin
 * gains nothing it did not already hold — and every check behind the token (access policy, SMART
 * scopes, project) applies as to anyone.
 *
 * One synchronous hook, first of all: answers a preflight before any route or sign-in check, and
 * costs a header lookup on requests without `Origin` (every same-origin or server-side call).
 */
export function addCors(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    const query = request.url.indexOf('?');
    const path = query < 0 ? request.url : request.url.slice(0, query);
    if (!isCorsPath(path)) return done();
    if (credentialedPaths.has(path)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('access-control-allow-credentials', 'true');
      reply.header('vary', 'Origin');
    } else {
      reply.header('access-control-allow-origin', '*');
    }
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply
        .code(204)
        .header('access-control-allow-methods', allowedMethods)
        .header('access-control-allow-headers', allowedHeaders)
        .header('access-control-max-age', String(preflightMaxAgeSeconds))
        .send();
      return;
    }
    reply.header('access-control-expose-headers', exposedHeaders);
    done();
  });
}
