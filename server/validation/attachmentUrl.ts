/**
 * Schemes an `Attachment.url` may have: where the content can be fetched (http, https) or a name
 * (urn:, as a transaction Bundle's `urn:uuid:` entries). A reference without a scheme (the app's
 * `Binary/{id}`, which signed links are turned back into) resolves against the server's own address
 * and is accepted. Anything else — `javascript:`, `data:text/html,…`, `vbscript:`, `file:` — is
 * what an app showing the attachment as a link or an image would run or open: FHIR carries inline
 * content in `Attachment.data`, not in the url.
 */
const allowedSchemes = new Set(['http', 'https', 'urn']);

/**
 * The scheme a browser reads from `url`, lower-cased, or undefined for a relative reference. As the
 * WHATWG URL parser does: leading C0 controls and spaces are dropped and tabs and newlines removed
 * anywhere first, so `  java\tscript:` is `javascript`.
 */
export function urlScheme(url: string): string | undefined {
  // eslint-disable-next-line no-control-regex -- the C0 controls a URL parser strips are the point
  const cleaned = url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(cleaned);
  return match ? match[1].toLowerCase() : undefined;
}

/** Why `url` may not be an Attachment's url, or undefined when it may. */
export function attachmentUrlProblem(url: string): string | undefined {
  const scheme = urlScheme(url);
  if (scheme === undefined || allowedSchemes.has(scheme)) return undefined;
  const inline = scheme === 'data' ? '; inline content goes in Attachment.data' : '';
  return `An Attachment url may not use the "${scheme}:" scheme: use http(s), urn: or a Binary reference (Binary/{id})${inline}`;
}
