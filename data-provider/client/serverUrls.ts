import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { formatQueryPairs } from '../search/queryEncoding';

/** Query parameters as the client's calls accept them. */
export type SearchQuery =
  string | URLSearchParams | Record<string, string | number | boolean | readonly string[] | undefined>;

export function queryString(query: SearchQuery | undefined): string {
  if (query === undefined) return '';
  if (typeof query === 'string') return query.startsWith('?') ? query.slice(1) : query;
  if (query instanceof URLSearchParams) return query.toString();
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) pairs.push([key, String(one)]);
  }
  return formatQueryPairs(pairs);
}

function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

export interface ServerUrlOptions {
  baseUrl: string;
  fhirUrlPath: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  logoutUrl?: string;
}

const resourceTypePattern = /^[A-Z][A-Za-z]+$/;

/**
 * The routes below the server base, besides the FHIR base, that this client calls with the access
 * token (ARCHITECTURE.md, HTTP API): sign-in steps and the account (`auth/`), project
 * administration, e-mail and the key-value store. `oauth2/` is not among them: the token and logout
 * calls send what they need themselves, and nothing else may reach them with the token by accident.
 */
const TOKEN_ROUTES = ['auth/', 'admin/', 'email/v1/', 'keyvalue/v1/'];

/** A Binary or version id (FHIR id: letters, digits, hyphen, dot; 1 to 64), not `.`/`..`. */
const idSegment = '(?!\\.{1,2}(?:/|$))[A-Za-z0-9\\-.]{1,64}';
/** Under the FHIR base: a Binary's content (`Binary/{id}`, `Binary/{id}/_history/{vid}`) and bulk export output files. */
const serverFilePattern = new RegExp(
  `^(?:Binary/${idSegment}(?:/_history/${idSegment})?|bulkdata/export/${idSegment}/[A-Za-z0-9\\-._]{1,128})$`,
);
/** A relative attachment address the client resolves against the FHIR base: only a Binary. */
const relativeBinaryPattern = new RegExp(`^Binary/${idSegment}(?:/_history/${idSegment})?$`);
/** Raster images an <img> shows without running anything (no SVG: it can carry script). */
const inlineImagePattern = /^data:image\/(?:png|jpeg|gif|webp|bmp|avif)(?:;[^,]*)?,/i;

/**
 * What an attachment address is to this client (data-and-client-layer-spec §7, `download`):
 * - `server`: a file of this server read with the access token: a Binary (`Binary/{id}`, relative
 *   or under the FHIR base) or a bulk export output file;
 * - `signed`: this server's signed storage address (`{base}storage/{id}/{vid}?Expires=…&Signature=…`,
 *   as the server answers Binary attachments): read without the token, the signature is the permission;
 * - `inline`: a `data:` URL of a raster image, decoded in place (nothing is requested);
 * - `external`: any other http(s) address (another origin, or another path of this one): never
 *   requested by the client, at most offered as a plain link;
 * - `unsafe`: anything else (`javascript:`, `data:text/html`, other schemes, other relative paths):
 *   never requested, never a link.
 */
export type FileAddressKind = 'server' | 'signed' | 'inline' | 'external' | 'unsafe';

export interface FileAddress {
  kind: FileAddressKind;
  /** The absolute address (normalized) for every kind but `unsafe`, whose address is not repeated. */
  href: string;
}

function parseAbsolute(href: string): URL | undefined {
  try {
    return new URL(href);
  } catch {
    return undefined;
  }
}

function withoutTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The addresses of one server, and which of them are FHIR resources of which type. */
export class ServerUrls {
  readonly baseUrl: string;
  readonly fhirBaseUrl: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly logoutUrl: string;

  constructor(options: ServerUrlOptions) {
    if (!/^https?:\/\/[^/]/i.test(options.baseUrl) || !URL.canParse(options.baseUrl)) {
      throw new OperationOutcomeError(badRequest('Not a valid URL', 'baseUrl'));
    }
    this.baseUrl = withTrailingSlash(options.baseUrl);
    const fhirPath = options.fhirUrlPath.replace(/^\/+|\/+$/g, '');
    this.fhirBaseUrl = withTrailingSlash(new URL(fhirPath, this.baseUrl).toString());
    this.authorizeUrl = options.authorizeUrl ?? this.url('oauth2/authorize').toString();
    this.tokenUrl = options.tokenUrl ?? this.url('oauth2/token').toString();
    this.logoutUrl = options.logoutUrl ?? this.url('oauth2/logout').toString();
  }

  /**
   * Whether a request to `href` may carry the access token: only this server's API, that is the
   * origin of the FHIR base and a path below it, or the server's origin and one of the few other
   * API routes the client calls (TOKEN_ROUTES). The address is judged as `fetch` will send it
   * (parsed, so `..` and `%2e%2e` segments are already resolved), never by its text.
   */
  takesAccessToken(href: string): boolean {
    const url = parseAbsolute(href);
    if (!url || url.username || url.password) return false;
    const fhirBase = new URL(this.fhirBaseUrl);
    if (
      url.origin === fhirBase.origin &&
      (url.pathname.startsWith(fhirBase.pathname) || url.pathname === withoutTrailingSlash(fhirBase.pathname))
    ) {
      return true;
    }
    const base = new URL(this.baseUrl);
    return url.origin === base.origin && TOKEN_ROUTES.some((route) => url.pathname.startsWith(base.pathname + route));
  }

  /** What an attachment address is, and so whether and how the client may fetch it (FileAddressKind). */
  fileAddress(address: string): FileAddress {
    const text = address.trim();
    if (relativeBinaryPattern.test(text)) return { kind: 'server', href: this.fhirBaseUrl + text };
    const url = parseAbsolute(text);
    if (!url) return { kind: 'unsafe', href: '' };
    if (url.protocol === 'data:')
      return inlineImagePattern.test(text) ? { kind: 'inline', href: text } : { kind: 'unsafe', href: '' };
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'unsafe', href: '' };
    const external: FileAddress = { kind: 'external', href: url.href };
    if (url.username || url.password) return external;
    const fhirBase = new URL(this.fhirBaseUrl);
    if (url.origin === fhirBase.origin && url.pathname.startsWith(fhirBase.pathname)) {
      const rest = url.pathname.slice(fhirBase.pathname.length);
      return serverFilePattern.test(rest) && !url.search ? { kind: 'server', href: url.href } : external;
    }
    const base = new URL(this.baseUrl);
    const storage = `${base.pathname}storage/`;
    if (url.origin === base.origin && url.pathname.startsWith(storage) && url.pathname.length > storage.length) {
      return { kind: 'signed', href: url.href };
    }
    return external;
  }

  /** A path relative to the server base, e.g. `auth/me`. */
  url(path: string): URL {
    return new URL(path.replace(/^\/+/, ''), this.baseUrl);
  }

  /** `fhirUrl('Patient', '123')` → `{base}/fhir/R4/Patient/123`. */
  fhirUrl(...path: string[]): URL {
    return new URL(this.fhirBaseUrl + path.map((part) => encodeURIComponent(part).replace(/%24/g, '$')).join('/'));
  }

  fhirSearchUrl(resourceType: string, query?: SearchQuery): URL {
    const url = this.fhirUrl(resourceType);
    const search = queryString(query);
    if (search) url.search = search;
    return url;
  }

  isFhirUrl(href: string): boolean {
    return href.startsWith(this.fhirBaseUrl);
  }

  /** `{base}/fhir/R4/Patient?x=1` → `Patient?x=1`, as a batch entry names it. */
  fhirRelativeUrl(href: string): string {
    return this.isFhirUrl(href) ? href.slice(this.fhirBaseUrl.length) : href;
  }

  private fhirPathSegments(href: string): string[] | undefined {
    if (!this.isFhirUrl(href)) return undefined;
    const path = this.fhirRelativeUrl(href).split(/[?#]/)[0];
    return path.split('/').filter((segment) => segment.length > 0);
  }

  /** The resource type a FHIR URL is about (`Patient/1/_history` → Patient); undefined for the base and operations on it. */
  resourceTypeOf(href: string): string | undefined {
    const first = this.fhirPathSegments(href)?.[0];
    return first !== undefined && resourceTypePattern.test(first) ? first : undefined;
  }

  isSearchUrl(href: string): boolean {
    const segments = this.fhirPathSegments(href);
    return segments?.length === 1 && resourceTypePattern.test(segments[0]);
  }

  /** The batch/transaction endpoint. */
  isFhirBase(href: string): boolean {
    return this.fhirPathSegments(href)?.length === 0;
  }

  /** `…/$validate`, `…/$execute`: calls that do not write the resource they are addressed to. */
  isOperationUrl(href: string): boolean {
    return this.fhirPathSegments(href)?.some((segment) => segment.startsWith('$')) ?? false;
  }
}
