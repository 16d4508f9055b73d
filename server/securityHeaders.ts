import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Hosts of DoseSpot's e-prescribing pages, which the chart shows in an iframe. */
export const ePrescribingFrameHosts = ['https://my.staging.dosespot.com', 'https://my.dosespot.com'];

/**
 * The web app's Content-Security-Policy: scripts only from this origin (the Vite build has no inline
 * script), inline styles (MUI's emotion injects <style> elements), images also as data:/blob: URLs,
 * fetch and websockets to this origin, DoseSpot in frames, and never framed itself.
 */
export function appContentSecurityPolicy(baseUrl: string, extraFrameOrigins: readonly string[] = []): string {
  const base = new URL(baseUrl);
  // 'self' covers same-origin websockets in CSP3 browsers; the explicit origin covers older ones.
  const socketOrigin = `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${socketOrigin}`,
    `frame-src ${[...ePrescribingFrameHosts, ...extraFrameOrigins].join(' ')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** API answers are data, never a page: nothing may load from them, nothing may frame them. */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'";

/**
 * Security headers on every answer, the web app's and the API's: Content-Security-Policy,
 * X-Content-Type-Options, X-Frame-Options and Referrer-Policy, and `Cache-Control: no-store` on API answers. A route that set its own (Binary
 * downloads: `sandbox; default-src 'none'`) keeps it.
 *
 * The policy follows the path, not the content type: a 304 for the cached index.html has no
 * content type, and browsers take the 304's headers over the cached page's.
 */
export function addSecurityHeaders(
  app: FastifyInstance,
  options: {
    baseUrl: string;
    frameOrigins?: readonly string[];
    /** An API call (JSON answers, the strict API policy) rather than a page of the web app. */
    isApiRequest: (request: FastifyRequest) => boolean;
  },
): void {
  const appPolicy = appContentSecurityPolicy(options.baseUrl, options.frameOrigins);
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '').toLowerCase();
    const isPage = type.startsWith('text/html') || !options.isApiRequest(request);
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', isPage ? appPolicy : apiContentSecurityPolicy);
    }
    // API answers hold health records: no browser or proxy keeps them, and a read right after a
    // write never comes from a stale cached copy (the client has its own short, invalidated cache).
    if (!isPage && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (!reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('x-frame-options')) reply.header('x-frame-options', 'DENY');
    // Chart URLs name patients and resources: they are not handed to other sites.
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
}
