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
