/**
 * This server's own FHIR base, as references may spell it. A reference to `{BASE_URL}fhir/R4/Patient/1`
 * is the same reference as `Patient/1` (FHIR resolves a relative reference against the service
 * base), so the repository stores it in that relative form (RepositorySession.create/update): then
 * the reference checks, the patient compartments, the search index, the access criteria and every
 * reader see one form, and an absolute URL cannot get past what `Type/id` is checked for.
 *
 * Every spelling that reaches this server counts: scheme in any case and either of http/https (a
 * proxy redirects one to the other), host in any case, the default port written or not, the base
 * path in any case, repeated or trailing slashes, percent-encoded characters, userinfo, and for a
 * loopback BASE_URL or the port the server listens on, every loopback name (localhost, 127.x.x.x,
 * [::1], 0.0.0.0). Recognising too much is safe — the reference is then checked as a local one —
 * recognising too little is not, so matching errs on the side of "this server".
 */
export class ServerAddress {
  private readonly host: string;
  private readonly portKey: string;
  private readonly loopbackBase: boolean;
  /** Lower-case path prefixes of the FHIR base, e.g. `/fhir/r4/` (and `/emr/fhir/r4/` under a path). */
  private readonly fhirPaths: string[];
  private readonly listenPort?: string;

  /**
   * @param baseUrl BASE_URL (config/serverConfig.ts), ending with `/`; the FHIR base is `{baseUrl}fhir/R4/`.
   * @param listenPort the port the server listens on: loopback URLs on it reach this server too.
   */
  constructor(baseUrl: string, listenPort?: number) {
    const base = new URL(baseUrl);
    this.host = hostOf(base);
    this.portKey = portKey(base);
    this.loopbackBase = isLoopback(this.host);
    const basePath = cleanPath(base.pathname).toLowerCase().replace(/\/?$/, '/');
    // Behind a proxy that strips BASE_URL's path, the listener serves the API at /fhir/R4/.
    this.fhirPaths = [...new Set([`${basePath}fhir/r4/`, '/fhir/r4/'])];
    if (listenPort !== undefined && listenPort > 0) this.listenPort = String(listenPort);
  }

  /**
   * The relative form (`Patient/1`, `Patient/1/_history/2`, `Patient?identifier=…`) of a reference
   * that names this server's FHIR base absolutely (`http://…`, `//host/…`) or by an absolute path
   * (`/fhir/R4/Patient/1`); undefined for every other reference (relative, contained, `urn:`, other
   * servers), which stays as it is.
   */
  localForm(reference: string): string | undefined {
    const text = reference.trim();
    if (!/^(?:https?:\/\/|\/)/i.test(text)) return undefined;
    let url: URL;
    try {
      // `//host/…` and `/path` resolve against BASE_URL, as a client resolving them would.
      url = new URL(text, `http://${this.host}${this.portKey === 'default' ? '' : `:${this.portKey}`}/`);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (!this.isThisServer(url)) return undefined;
    const path = cleanPath(url.pathname);
    const lower = path.toLowerCase();
    const prefix = this.fhirPaths.find((candidate) => lower.startsWith(candidate));
    if (prefix === undefined) return undefined;
    const rest = path.slice(prefix.length).replace(/\/+$/, '');
    if (rest === '') return undefined;
    return `${rest}${url.search}${url.hash}`;
  }

  private isThisServer(url: URL): boolean {
    const host = hostOf(url);
    const key = portKey(url);
    if (host === this.host && key === this.portKey) return true;
    if (!isLoopback(host)) return false;
    return (
      (this.loopbackBase && key === this.portKey) || (this.listenPort !== undefined && url.port === this.listenPort)
    );
  }
}

/** The host name in lower case, without the trailing dot of a fully qualified name (`host.example.`). */
function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/\.$/, '');
}

/** The port as written, or `default` for the scheme's own (so https://x/ and http://x/ compare equal). */
function portKey(url: URL): string {
  return url.port === '' ? 'default' : url.port;
}

function isLoopback(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '0.0.0.0' ||
    host === '[::1]' ||
    host === '[::]' ||
    /^\[::ffff:(?:7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d{1,3}\.\d{1,3}\.\d{1,3})\]$/.test(host)
  );
}

/** The path with each segment percent-decoded and repeated slashes collapsed, as a router would see it. */
function cleanPath(pathname: string): string {
  const decoded = pathname
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
  return decoded.replace(/\/{2,}/g, '/');
}

/**
 * `value` with every `reference` string that names this server's FHIR base in its relative form.
 * Copies only the objects on the way to a changed reference (as bundleProcessor's rewriteReferences
 * does): a resource without one — nearly every resource — comes back as the same object.
 */
export function withLocalReferences<T>(value: T, server: ServerAddress): T {
  return localise(value, server, 0) as T;
}

function localise(value: unknown, server: ServerAddress, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > 100) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = localise(value[i], server, depth + 1);
      if (next !== value[i]) {
        copy ??= value.slice();
        copy[i] = next;
      }
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const object = value as Record<string, unknown>;
  for (const key in object) {
    const child = object[key];
    let next: unknown = child;
    if (typeof child === 'string') {
      if (key === 'reference' && mayNameServer(child)) next = server.localForm(child) ?? child;
    } else if (typeof child === 'object' && child !== null) {
      next = localise(child, server, depth + 1);
    }
    if (next !== child) {
      copy ??= { ...object };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/** Cheap first test: only a reference starting with `h`/`H`, `/` or white space can be absolute. */
function mayNameServer(reference: string): boolean {
  const first = reference.charCodeAt(0);
  return first === 104 || first === 72 || first === 47 || first === 32 || first === 9 || first === 10 || first === 13;
}
