/**
 * Which addresses an OAuth2 client may register and receive codes at: `https:`, or `http:` on this
 * machine's loopback (native and development apps, RFC 8252 §7.3). Anything else — `javascript:`,
 * `data:`, `vbscript:`, custom schemes, plain `http:` to another host — would let the address run
 * script in the signing-in page or send codes over the network in clear, so it is refused both when
 * a ClientApplication is saved and before a browser is sent there.
 */
export function redirectUriProblem(address: string): string | undefined {
  return appAddressProblem(address, 'Redirect URI');
}

/**
 * The same rule for any address of an app the browser is sent to (`what` names it in the message):
 * its launch URI too, where the chart sends a clinician's browser with a launch id.
 */
export function appAddressProblem(address: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `${what} must be an absolute URL`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  if (url.protocol === 'http:') return `${what} must use https (http only for localhost or 127.0.0.1)`;
  return `${what} scheme "${url.protocol}" is not allowed: use https`;
}

export function isAllowedRedirectUri(address: string): boolean {
  return redirectUriProblem(address) === undefined;
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  // The URL parser has already normalised IPv4 forms (127.1, 0x7f.0.0.1) to dotted decimal.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
