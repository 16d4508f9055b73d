import type {
  AccessPolicy,
  Agent,
  AsyncJob,
  Attachment,
  Binary,
  Bundle,
  BundleEntry,
  BulkDataExport,
  Communication,
  Device,
  ExtractResource,
  Identifier,
  Media,
  OperationOutcome,
  Parameters,
  Project,
  ProjectMembership,
  Reference,
  Resource,
  ResourceType,
  StructureDefinition,
  UserConfiguration,
  ValueSet,
} from '@medplum/fhirtypes';
import { ResourceWriteEvent, typesWrittenByBundle } from './resourceWriteEvent';
import { badRequest, serverError, unauthorized } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { abortableDelay } from './abortableDelay';
import { accessTokenProblem, decodeAccessTokenClaims, isTokenExpired, tokenExpiresAt } from './accessTokenClaims';
import type {
  ExternalAuthRequest,
  GoogleLoginRequest,
  LoginRequest,
  LoginResponse,
  LoginState,
  NewPatientRequest,
  NewProjectRequest,
  NewUserRequest,
  ProfileResource,
  SessionDetails,
  TokenResponse,
  AuthMethodRequest,
  AuthMethodResponse,
  LoginStatus,
  RegistrationOptions,
  ContinueSignInRequest,
  LaunchAvailability,
  ClientInfo,
  LaunchPatientOption,
} from './authTypes';
import {
  BROWSER_CACHE_TIME,
  DEFAULT_ACCEPT,
  DEFAULT_AUTO_BATCH_TIME,
  DEFAULT_FHIR_URL_PATH,
  DEFAULT_NODE_BASE_URL,
  DEFAULT_RESOURCE_CACHE_SIZE,
  DEFAULT_SCOPE,
  FHIR_JSON,
  FORM_URLENCODED,
  JSON_PATCH,
  MAX_RETRIES,
  NODE_CACHE_TIME,
  PKCE_METHOD,
  POLL_INTERVAL,
  REFRESH_GRACE_PERIOD,
  RETRY_DELAY,
} from './clientDefaults';
import { type ClientStorage, defaultStorage, isBrowser } from './clientStorage';
import { discardBody, type FetchLike, fetchWithRetry, type RetryPolicy } from './fetchWithRetry';
import { LoginStore } from './loginStore';
import { loginFromTokens, refreshGrantForm } from './refreshGrant';
import { renewedInStorage, withAccountRenewalLock } from './accountRenewalLock';
import { type StoredLoginSession, StoredLoginSessions } from './storedLoginSessions';
import { createCodeChallenge, createCodeVerifier, createRandomString } from './pkce';
import { RequestBatcher } from './requestBatcher';
import { RequestCache } from './requestCache';
import { parseReference, referenceTo, SYSTEM_DEVICE, SYSTEM_REFERENCE } from './resourceReference';
import { isJsonContentType, readResponseBody, type ResponseType } from './responseBody';
import { type FileAddress, type SearchQuery, ServerUrls } from './serverUrls';
import { SharedRequest } from './sharedRequest';
import { SignOutEvent } from './signOutEvent';
import { canReportUploadProgress, createXhrUploadFetch, type UploadProgress } from './xhrUploadFetch';

export interface FhirClientOptions {
  /** The server, e.g. `https://ehr.example.org/`; must start with http. Default: the page's origin, or localhost:8103 outside a browser. */
  baseUrl?: string;
  /** Path of the FHIR base below `baseUrl`. Default `fhir/R4`. */
  fhirUrlPath?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  logoutUrl?: string;
  /** The ClientApplication this app signs in as; access tokens issued to another client are refused. */
  clientId?: string;
  /** Where logins are kept. Default: localStorage in the browser, memory elsewhere. */
  storage?: ClientStorage;
  /** How long GET answers are reused (ms). Default 60000 in the browser, 0 (no cache) elsewhere. */
  cacheTime?: number;
  /** How many GET answers are kept. Default 1000. */
  resourceCacheSize?: number;
  /** Window (ms) in which GETs are collected into one batch. Default 100; 0 disables batching. */
  autoBatchTime?: number;
  /** Called when the session has ended without the user signing out (a 401 that a refresh could not cure). */
  onUnauthenticated?: () => void;
  fetch?: FetchLike;
  /** Turns a document definition into PDF bytes; without it createPdf is refused. */
  createPdf?: CreatePdfFunction;
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /**
   * `default` reuses a cached answer; `reload`/`no-cache` fetch anew and cache the answer;
   * `no-store` neither reads nor fills the cache.
   */
  cache?: 'default' | 'reload' | 'no-cache' | 'no-store';
  disableAutoBatch?: boolean;
  /** Follow a 202 answer's Content-Location until the work is done. Default true. */
  pollStatusOnAccepted?: boolean;
}

interface SendOptions extends RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** Objects are sent as JSON; strings, blobs and byte arrays as they are. */
  body?: unknown;
  contentType?: string;
  responseType?: ResponseType;
  /** Another way to fetch for this request (XMLHttpRequest for upload progress). */
  transport?: FetchLike;
}

export interface PatchOperation {
  op: 'add' | 'remove' | 'replace' | 'copy' | 'move' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

/** Search results as an array, with the Bundle they came in (links, total) alongside. */
export type ResourceArray<T extends Resource = Resource> = T[] & { bundle: Bundle<T> };

export type BinarySource = string | Blob | ArrayBuffer | Uint8Array;

export interface BinaryUpload {
  data: BinarySource;
  contentType: string;
  filename?: string;
  /** The resource whose access rules the Binary follows (sent as X-Security-Context). */
  securityContext?: Reference;
  onProgress?: (progress: UploadProgress) => void;
}

export interface MediaUpload extends BinaryUpload {
  additionalFields?: Partial<Media>;
}

export type CreatePdfFunction = (
  docDefinition: unknown,
  tableLayouts?: unknown,
  fonts?: unknown,
) => Promise<Blob | ArrayBuffer | Uint8Array>;

export interface CreatePdfRequest {
  docDefinition: unknown;
  filename?: string;
  tableLayouts?: unknown;
  fonts?: unknown;
  onProgress?: (progress: UploadProgress) => void;
}

export interface ValueSetExpandParams {
  url: string;
  filter?: string;
  count?: number;
  offset?: number;
}

export interface SubscriptionBindingToken {
  token: string;
  websocketUrl: string;
  expiration?: string;
}

export interface EmailMessage {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  from?: string;
  subject: string;
  text?: string;
  html?: string;
  attachments?: { filename?: string; content?: string; contentType?: string; path?: string }[];
}

export interface InviteRequest {
  resourceType: 'Patient' | 'Practitioner' | 'RelatedPerson';
  firstName: string;
  lastName: string;
  email?: string;
  externalId?: string;
  password?: string;
  sendEmail?: boolean;
  admin?: boolean;
  membership?: Partial<ProjectMembership>;
}

export interface GraphQLResponse<T = unknown> {
  data?: T;
  errors?: { message: string; path?: (string | number)[] }[];
}

const tokenExchangeGrant = 'urn:ietf:params:oauth:grant-type:token-exchange';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const jwtAssertionType = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

function invalid(text: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(text));
}

function isRawBody(body: unknown): boolean {
  return (
    typeof body === 'string' ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    body instanceof URLSearchParams ||
    (typeof FormData !== 'undefined' && body instanceof FormData)
  );
}

function byteLength(data: BinarySource): number {
  if (typeof data === 'string') return new TextEncoder().encode(data).byteLength;
  if (data instanceof Blob) return data.size;
  return data.byteLength;
}

/** The bytes of a `data:` URL (base64 or percent-encoded), typed by its media type. */
function dataUrlBlob(href: string): Blob {
  const comma = href.indexOf(',');
  const header = href.slice('data:'.length, comma);
  const payload = href.slice(comma + 1);
  const [type, ...parameters] = header.split(';');
  const base64 = parameters.some((parameter) => parameter.trim().toLowerCase() === 'base64');
  const bytes = base64
    ? Uint8Array.from(atob(decodeURIComponent(payload).replace(/\s+/g, '')), (char) => char.charCodeAt(0))
    : new TextEncoder().encode(decodeURIComponent(payload));
  return new Blob([bytes], { type: type.trim().toLowerCase() });
}

function isAsyncJob(value: unknown): value is AsyncJob {
  return (
    typeof value === 'object' && value !== null && (value as { resourceType?: unknown }).resourceType === 'AsyncJob'
  );
}

function isReadOnlyBundle(body: unknown): boolean {
  const entries = (body as Partial<Bundle> | undefined)?.entry;
  return (
    (body as Partial<Bundle> | undefined)?.resourceType === 'Bundle' &&
    Array.isArray(entries) &&
    entries.every((entry) => entry.request?.method === 'GET' || entry.request?.method === 'HEAD')
  );
}

function isSearchMatch(entry: BundleEntry): boolean {
  return entry.search?.mode !== 'include' && entry.search?.mode !== 'outcome';
}

/**
 * The FHIR client of the client layer (data-and-client-layer-spec.md §4, §7–§9): FHIR calls,
 * sign-in and token handling, and the request machinery (cache, automatic batching, retries,
 * polling). Framework-free; the react-admin providers sit on top of it.
 *
 * Events: `offline` when a request's first try gets no answer; `change` when the active login or
 * the session details change; `resourceWrite` (a ResourceWriteEvent) after a successful write.
 */
export class FhirClient extends EventTarget {
  private readonly urls: ServerUrls;
  private readonly clientId: string | undefined;
  private readonly logins: LoginStore;
  private readonly storedLogins: StoredLoginSessions;
  private readonly cache: RequestCache<SharedRequest<unknown>>;
  private readonly batcher: RequestBatcher | undefined;
  private readonly fetchFn: FetchLike;
  private readonly onUnauthenticated: (() => void) | undefined;
  private readonly createPdfImpl: CreatePdfFunction | undefined;
  private readonly retryPolicy: RetryPolicy;
  private activeLogin: LoginState | undefined;
  private activeLoginExpiresAt: number | undefined;
  private sessionDetails: SessionDetails | undefined;
  private refreshPromise: Promise<void> | undefined;
  private profilePromise: Promise<ProfileResource | undefined> | undefined;

  constructor(options: FhirClientOptions = {}) {
    super();
    const browser = isBrowser();
    const baseUrl = options.baseUrl ?? (browser ? `${window.location.origin}/` : DEFAULT_NODE_BASE_URL);
    this.urls = new ServerUrls({
      baseUrl,
      fhirUrlPath: options.fhirUrlPath ?? DEFAULT_FHIR_URL_PATH,
      authorizeUrl: options.authorizeUrl,
      tokenUrl: options.tokenUrl,
      logoutUrl: options.logoutUrl,
    });
    this.clientId = options.clientId || undefined;
    this.logins = new LoginStore(options.storage ?? defaultStorage());
    this.cache = new RequestCache(
      options.resourceCacheSize ?? DEFAULT_RESOURCE_CACHE_SIZE,
      options.cacheTime ?? (browser ? BROWSER_CACHE_TIME : NODE_CACHE_TIME),
    );
    // Looked up on each call rather than bound once, so a fetch installed later (tests, polyfills) is used.
    this.fetchFn = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.onUnauthenticated = options.onUnauthenticated;
    this.createPdfImpl = options.createPdf;
    this.retryPolicy = {
      maxRetries: MAX_RETRIES,
      retryDelay: RETRY_DELAY,
      onFirstNetworkFailure: () => this.dispatchEvent(new Event('offline')),
    };
    this.storedLogins = new StoredLoginSessions({
      urls: this.urls,
      clientId: this.clientId,
      logins: this.logins,
      fetch: (url, init) => this.fetchFn(url, init),
      retryPolicy: this.retryPolicy,
    });
    const autoBatchTime = options.autoBatchTime ?? DEFAULT_AUTO_BATCH_TIME;
    this.batcher =
      autoBatchTime > 0
        ? new RequestBatcher({
            delay: autoBatchTime,
            sendOne: (url, signal) => this.send({ method: 'GET', url, signal }),
            sendBatch: (bundle) =>
              this.send({ method: 'POST', url: this.urls.fhirBaseUrl, body: bundle }) as Promise<Bundle>,
          })
        : undefined;

    const stored = this.logins.getActiveLogin();
    // A login stored for another client (the app was reconfigured) is dropped rather than sent.
    if (stored && accessTokenProblem(stored.accessToken, this.clientId, 0) === undefined) {
      this.setLoginInMemory(stored);
    } else if (stored) {
      this.logins.clearActiveLogin();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Addresses

  getBaseUrl(): string {
    return this.urls.baseUrl;
  }

  getFhirBaseUrl(): string {
    return this.urls.fhirBaseUrl;
  }

  fhirUrl(...path: string[]): URL {
    return this.urls.fhirUrl(...path);
  }

  fhirSearchUrl(resourceType: string, query?: SearchQuery): URL {
    return this.urls.fhirSearchUrl(resourceType, query);
  }

  getAuthorizeUrl(): string {
    return this.urls.authorizeUrl;
  }

  getTokenUrl(): string {
    return this.urls.tokenUrl;
  }

  getLogoutUrl(): string {
    return this.urls.logoutUrl;
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP verbs

  /** A GET, answered from the cache when possible and batched with other GETs to the FHIR base. */
  get<T = unknown>(url: string | URL, options: RequestOptions = {}): Promise<T> {
    const href = url.toString();
    const mode = options.cache ?? 'default';
    const cacheable = this.cache.enabled && this.urls.isFhirUrl(href) && !options.headers && mode !== 'no-store';
    if (cacheable && mode === 'default') {
      const cached = this.cache.get(href);
      if (cached) return cached.join(options.signal) as Promise<T>;
    }
    const load = (signal: AbortSignal | undefined): Promise<unknown> =>
      this.batcher && this.urls.isFhirUrl(href) && !options.headers && !options.disableAutoBatch
        ? this.batcher.enqueue(href, this.urls.fhirRelativeUrl(href), signal)
        : this.send({ ...options, method: 'GET', url: href, signal });
    if (!cacheable) return load(options.signal) as Promise<T>;
    const shared = new SharedRequest(load);
    this.cache.set(href, shared, {
      resourceType: this.urls.resourceTypeOf(href),
      search: this.urls.isSearchUrl(href),
    });
    shared.promise.catch(() => this.cache.delete(href, shared));
    return shared.join(options.signal) as Promise<T>;
  }

  post<T = unknown>(url: string | URL, body?: unknown, contentType?: string, options: RequestOptions = {}): Promise<T> {
    return this.send({ ...options, method: 'POST', url: url.toString(), body, contentType }) as Promise<T>;
  }

  put<T = unknown>(url: string | URL, body: unknown, contentType?: string, options: RequestOptions = {}): Promise<T> {
    return this.send({ ...options, method: 'PUT', url: url.toString(), body, contentType }) as Promise<T>;
  }

  patch<T = unknown>(url: string | URL, operations: PatchOperation[], options: RequestOptions = {}): Promise<T> {
    return this.send({
      ...options,
      method: 'PATCH',
      url: url.toString(),
      body: operations,
      contentType: JSON_PATCH,
    }) as Promise<T>;
  }

  delete<T = unknown>(url: string | URL, options: RequestOptions = {}): Promise<T> {
    return this.send({ ...options, method: 'DELETE', url: url.toString() }) as Promise<T>;
  }

  /**
   * What an attachment address is to this client: a file of this server (`server`, read with the
   * token; `signed`, read without it), an inline image, or an address it never requests
   * (`external`, `unsafe`). Screens show the last two as a plain link at most (FileAddressKind).
   */
  fileAddress(url: string | URL): FileAddress {
    return this.urls.fileAddress(url.toString());
  }

  /**
   * The bytes of a file of this server, never cached or batched: a Binary (`Binary/{id}`, relative
   * or under the FHIR base) or a bulk export file, with the access token; a signed storage address
   * of this server, without it; a `data:` raster image, decoded here. Any other address (another
   * origin, another route of this server such as `oauth2/logout`, `javascript:`, `data:text/html`)
   * is refused without a request: an attachment's address is written by whoever sent it.
   */
  download(url: string | URL, options: RequestOptions = {}): Promise<Blob> {
    const address = this.urls.fileAddress(url.toString());
    if (address.kind === 'inline') {
      try {
        return Promise.resolve(dataUrlBlob(address.href));
      } catch {
        return Promise.reject(invalid('The inline file could not be read'));
      }
    }
    if (address.kind !== 'server' && address.kind !== 'signed') {
      return Promise.reject(invalid('Not a file of this server: it is not downloaded'));
    }
    return this.send({
      ...options,
      method: 'GET',
      url: address.href,
      headers: { Accept: '*/*', ...options.headers },
      responseType: 'blob',
    }) as Promise<Blob>;
  }

  // ---------------------------------------------------------------------------------------------
  // Cache

  /** Forgets cached searches of one type (after a change the cache cannot see, e.g. a bot's). */
  invalidateSearches(resourceType: string): void {
    this.cache.deleteWhere((tags) => tags.search === true && tags.resourceType === resourceType);
  }

  invalidateUrl(url: string | URL): void {
    this.cache.delete(url.toString());
  }

  invalidateAll(): void {
    this.cache.clear();
  }

  /** A resource already read (or written) and still cached, without a request. */
  getCachedResource<K extends ResourceType>(resourceType: K, id: string): ExtractResource<K> | undefined {
    return this.cache.get(this.urls.fhirUrl(resourceType, id).toString())?.value as ExtractResource<K> | undefined;
  }

  private cacheResource<T extends Resource>(resource: T | undefined): void {
    if (!resource?.id || !resource.resourceType) return;
    this.cache.set(this.urls.fhirUrl(resource.resourceType, resource.id).toString(), SharedRequest.resolved(resource), {
      resourceType: resource.resourceType,
      search: false,
    });
  }

  /**
   * A write to a type makes every cached GET of that type stale; a batch or transaction may write
   * any type, unless all its entries are reads (as in the automatic batches of GETs).
   */
  private invalidateAfterWrite(href: string, body: unknown): void {
    if (!this.urls.isFhirUrl(href)) return;
    if (this.urls.isFhirBase(href)) {
      if (!isReadOnlyBundle(body)) this.cache.clear();
      return;
    }
    if (this.urls.isOperationUrl(href)) return;
    const resourceType = this.urls.resourceTypeOf(href);
    if (resourceType) this.cache.deleteWhere((tags) => tags.resourceType === resourceType);
  }

  // ---------------------------------------------------------------------------------------------
  // Request machinery

  /** The request as sent; the access token only when `withToken` (the URL is this server's API). */
  private requestInit(options: SendOptions, withToken: boolean): RequestInit {
    const headers: Record<string, string> = { Accept: DEFAULT_ACCEPT, ...options.headers };
    const token = withToken ? this.activeLogin?.accessToken : undefined;
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      // Raw bodies are passed through as they are; the cast only widens Uint8Array's buffer type.
      body = isRawBody(options.body) ? (options.body as BodyInit) : JSON.stringify(options.body);
      headers['Content-Type'] = options.contentType ?? FHIR_JSON;
    }
    return { method: options.method, headers, body, signal: options.signal };
  }

  private async send(options: SendOptions): Promise<unknown> {
    let invalidated = false;
    try {
      const response = await this.fetchAuthorized(options, false);
      if (response.status === 202 && options.pollStatusOnAccepted !== false) {
        const statusUrl = response.headers.get('content-location');
        if (statusUrl) {
          await discardBody(response);
          return await this.pollStatus(new URL(statusUrl, options.url).toString(), options);
        }
      }
      const body = await readResponseBody(response, options.responseType);
      if (options.method !== 'GET') {
        // Forgotten before the write is announced: a listener that searches again at once must not
        // be answered from the cache with what was true before the write.
        this.invalidateAfterWrite(options.url, options.body);
        invalidated = true;
        this.announceWrite(options.url, options.body);
      }
      return body;
    } finally {
      if (options.method !== 'GET' && !invalidated) this.invalidateAfterWrite(options.url, options.body);
    }
  }

  /** Dispatches a ResourceWriteEvent for a successful write to a FHIR URL (operations excluded). */
  private announceWrite(href: string, body: unknown): void {
    if (!this.urls.isFhirUrl(href) || this.urls.isOperationUrl(href)) return;
    if (this.urls.isFhirBase(href)) {
      const types = typesWrittenByBundle(body as Partial<Bundle> | undefined);
      if (types?.length !== 0) this.dispatchEvent(new ResourceWriteEvent(types));
      return;
    }
    const resourceType = this.urls.resourceTypeOf(href);
    if (resourceType) this.dispatchEvent(new ResourceWriteEvent([resourceType]));
  }

  /**
   * One request with retries. To this server's API (ServerUrls.takesAccessToken) it carries the
   * access token, refreshed first when it is about to expire, and a 401 gets exactly one refresh
   * and one more try; a second 401 ends the session. Any other address gets no token, and its
   * answer, a 401 too, says nothing about the session.
   */
  private async fetchAuthorized(options: SendOptions, afterRefresh: boolean): Promise<Response> {
    const transport = options.transport ?? this.fetchFn;
    if (!this.urls.takesAccessToken(options.url)) {
      return fetchWithRetry(transport, options.url, this.requestInit(options, false), this.retryPolicy);
    }
    await this.refreshIfExpiring();
    const tokenUsed = this.activeLogin?.accessToken;
    const response = await fetchWithRetry(transport, options.url, this.requestInit(options, true), this.retryPolicy);
    if (response.status !== 401) return response;
    if (tokenUsed === undefined) {
      // Nothing to refresh: the server's own answer says why (e.g. a wrong password at a sign-in step).
      if (!this.isSignInStep(options.url)) this.onUnauthenticated?.();
      return response;
    }
    await discardBody(response);
    if (!afterRefresh) {
      // Another request may already have refreshed while this one was on the way: just try again.
      const refreshedMeanwhile = this.activeLogin !== undefined && this.activeLogin.accessToken !== tokenUsed;
      if (!refreshedMeanwhile) await this.refresh();
      return this.fetchAuthorized(options, true);
    }
    this.endSession();
    throw new OperationOutcomeError(unauthorized(), 401);
  }

  /** auth/* calls: a 401 there means wrong credentials, not an ended session. */
  private isSignInStep(href: string): boolean {
    return href.startsWith(this.urls.url('auth/').toString());
  }

  private async pollStatus(statusUrl: string, options: SendOptions): Promise<unknown> {
    const pollOptions: SendOptions = { method: 'GET', url: statusUrl, signal: options.signal };
    for (;;) {
      await abortableDelay(POLL_INTERVAL, options.signal);
      const response = await this.fetchAuthorized(pollOptions, false);
      if (response.status === 202) {
        await discardBody(response);
        continue;
      }
      const body = await readResponseBody(response, options.responseType);
      // Our server reports long work as an AsyncJob resource that answers 200 while it runs.
      if (isAsyncJob(body)) {
        if (body.status === 'accepted' || body.status === 'active') continue;
        if (body.status === 'error' || body.status === 'cancelled') {
          throw new OperationOutcomeError(
            serverError(`Asynchronous job ${body.id ?? ''} ended with ${body.status}`),
            500,
          );
        }
      }
      return body;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // FHIR resources

  async createResource<T extends Resource>(resource: T, options: RequestOptions = {}): Promise<T> {
    if (!resource?.resourceType) throw invalid('Missing resourceType');
    const created = (await this.post(this.urls.fhirUrl(resource.resourceType), resource, FHIR_JSON, options)) as T;
    this.cacheResource(created);
    return created;
  }

  /** Creates the resource unless one matching `query` (e.g. `identifier=sys|123`) exists; returns the one that exists then. */
  async createResourceIfNoneExist<T extends Resource>(
    resource: T,
    query: string,
    options: RequestOptions = {},
  ): Promise<T> {
    if (!resource?.resourceType) throw invalid('Missing resourceType');
    const result = (await this.post(this.urls.fhirUrl(resource.resourceType), resource, FHIR_JSON, {
      ...options,
      headers: { ...options.headers, 'If-None-Exist': query.replace(/^\?/, '') },
    })) as T;
    this.cacheResource(result);
    return result;
  }

  async readResource<K extends ResourceType>(
    resourceType: K,
    id: string,
    options: RequestOptions = {},
  ): Promise<ExtractResource<K>> {
    if (!resourceType) throw invalid('Missing resourceType');
    if (!id) throw invalid('The resource id must not be empty');
    return this.get<ExtractResource<K>>(this.urls.fhirUrl(resourceType, id), options);
  }

  /** Reads `Type/id`; `system` (the author of server-made changes) reads as the System device. */
  async readReference<T extends Resource>(reference: Reference<T>, options: RequestOptions = {}): Promise<T> {
    if (reference?.reference === SYSTEM_REFERENCE) return SYSTEM_DEVICE as Device as T;
    const [resourceType, id] = parseReference(reference);
    return (await this.readResource(resourceType, id, options)) as T;
  }

  async readHistory<K extends ResourceType>(
    resourceType: K,
    id: string,
    options: RequestOptions = {},
  ): Promise<Bundle<ExtractResource<K>>> {
    if (!id) throw invalid('The resource id must not be empty');
    return this.get(this.urls.fhirUrl(resourceType, id, '_history'), options);
  }

  async readVersion<K extends ResourceType>(
    resourceType: K,
    id: string,
    versionId: string,
    options: RequestOptions = {},
  ): Promise<ExtractResource<K>> {
    if (!id) throw invalid('The resource id must not be empty');
    if (!versionId) throw invalid('The version id must not be empty');
    return this.get(this.urls.fhirUrl(resourceType, id, '_history', versionId), options);
  }

  /** PUT; a 304 (nothing changed) returns the resource as sent. */
  async updateResource<T extends Resource>(resource: T, options: RequestOptions = {}): Promise<T> {
    if (!resource?.resourceType) throw invalid('Missing resourceType');
    if (!resource.id) throw invalid('Missing id');
    const updated = (await this.put(
      this.urls.fhirUrl(resource.resourceType, resource.id),
      resource,
      FHIR_JSON,
      options,
    )) as T | undefined;
    this.cacheResource(updated);
    return updated ?? resource;
  }

  async patchResource<K extends ResourceType>(
    resourceType: K,
    id: string,
    operations: PatchOperation[],
    options: RequestOptions = {},
  ): Promise<ExtractResource<K>> {
    if (!id) throw invalid('The resource id must not be empty');
    const patched = (await this.patch(this.urls.fhirUrl(resourceType, id), operations, options)) as ExtractResource<K>;
    this.cacheResource(patched);
    return patched;
  }

  async deleteResource(resourceType: ResourceType, id: string, options: RequestOptions = {}): Promise<void> {
    if (!id) throw invalid('The resource id must not be empty');
    await this.delete(this.urls.fhirUrl(resourceType, id), options);
  }

  search<K extends ResourceType>(
    resourceType: K,
    query?: SearchQuery,
    options: RequestOptions = {},
  ): Promise<Bundle<ExtractResource<K>>> {
    return this.get(this.urls.fhirSearchUrl(resourceType, query), options);
  }

  /** The first match, asking the server for one result only. */
  async searchOne<K extends ResourceType>(
    resourceType: K,
    query?: SearchQuery,
    options: RequestOptions = {},
  ): Promise<ExtractResource<K> | undefined> {
    const url = this.urls.fhirSearchUrl(resourceType, query);
    url.searchParams.set('_count', '1');
    const bundle = await this.get<Bundle<ExtractResource<K>>>(url, options);
    return bundle?.entry?.find(isSearchMatch)?.resource;
  }

  /** The matches (not the `_include`d resources) as an array, with the Bundle as `.bundle`. */
  async searchResources<K extends ResourceType>(
    resourceType: K,
    query?: SearchQuery,
    options: RequestOptions = {},
  ): Promise<ResourceArray<ExtractResource<K>>> {
    const bundle = await this.search(resourceType, query, options);
    const resources = (bundle?.entry ?? [])
      .filter(isSearchMatch)
      .map((entry) => entry.resource)
      .filter((resource): resource is ExtractResource<K> => resource !== undefined);
    return Object.assign(resources, { bundle });
  }

  /** POSTs a batch or transaction Bundle to the FHIR base. */
  executeBatch(bundle: Bundle, options: RequestOptions = {}): Promise<Bundle> {
    return this.post(this.urls.fhirBaseUrl, bundle, FHIR_JSON, options);
  }

  graphql<T = unknown>(
    query: string,
    operationName?: string,
    variables?: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<GraphQLResponse<T>> {
    return this.post(this.urls.fhirUrl('$graphql'), { query, operationName, variables }, 'application/json', options);
  }

  valueSetExpand(params: ValueSetExpandParams, options: RequestOptions = {}): Promise<ValueSet> {
    const url = this.urls.fhirUrl('ValueSet', '$expand');
    url.search = new URLSearchParams(
      Object.entries(params)
        .filter(([, value]) => value !== undefined && value !== '')
        .map(([key, value]) => [key, String(value)]),
    ).toString();
    return this.get(url, options);
  }

  /** `$validate`: the server's verdict on a resource, without storing it. */
  async validateResource<T extends Resource>(resource: T, options: RequestOptions = {}): Promise<OperationOutcome> {
    if (!resource?.resourceType) throw invalid('Missing resourceType');
    return this.post(this.urls.fhirUrl(resource.resourceType, '$validate'), resource, FHIR_JSON, options);
  }

  async readPatientEverything(id: string, options: RequestOptions = {}): Promise<Bundle> {
    if (!id) throw invalid('The resource id must not be empty');
    return this.get(this.urls.fhirUrl('Patient', id, '$everything'), options);
  }

  /** `$graph` with a GraphDefinition name: the resource and what the graph says to follow. */
  async readGraph(
    resourceType: ResourceType,
    id: string,
    graph: string,
    options: RequestOptions = {},
  ): Promise<Bundle> {
    if (!id) throw invalid('The resource id must not be empty');
    const url = this.urls.fhirUrl(resourceType, id, '$graph');
    url.searchParams.set('graph', graph);
    return this.get(url, options);
  }

  /**
   * Bulk export kick-off (`$export` with Prefer: respond-async); follows the 202 answer's
   * Content-Location every second until the manifest is ready. `exportLevel` is '' (system),
   * 'Patient' or 'Group/{id}'.
   */
  bulkExport(
    exportLevel = '',
    resourceTypes?: string,
    since?: string,
    options: RequestOptions = {},
  ): Promise<Partial<BulkDataExport>> {
    const path = exportLevel.split('/').filter((part) => part.length > 0);
    const url = this.urls.fhirUrl(...path, '$export');
    if (resourceTypes) url.searchParams.set('_type', resourceTypes);
    if (since) url.searchParams.set('_since', since);
    return this.send({
      ...options,
      method: 'GET',
      url: url.toString(),
      headers: { ...options.headers, Prefer: 'respond-async' },
      pollStatusOnAccepted: true,
    }) as Promise<Partial<BulkDataExport>>;
  }

  /** Runs a bot by id, or by identifier (`Bot/$execute?identifier=system|value`). */
  executeBot(
    idOrIdentifier: string | Identifier,
    body: unknown,
    contentType = 'application/json',
    options: RequestOptions = {},
  ): Promise<unknown> {
    let url: URL;
    if (typeof idOrIdentifier === 'string') {
      if (!idOrIdentifier) return Promise.reject(invalid('The bot id must not be empty'));
      url = this.urls.fhirUrl('Bot', idOrIdentifier, '$execute');
    } else {
      url = this.urls.fhirUrl('Bot', '$execute');
      url.searchParams.set('identifier', `${idOrIdentifier.system ?? ''}|${idOrIdentifier.value ?? ''}`);
    }
    return this.post(url, body, contentType, options);
  }

  /** Sends a message through an Agent to a device or channel it serves. */
  pushToAgent(
    agent: Agent | Reference<Agent>,
    destination: string | Device | Reference<Device>,
    body: unknown,
    contentType?: string,
    waitForResponse?: boolean,
    options: RequestOptions = {},
  ): Promise<unknown> {
    const agentId = 'resourceType' in agent ? agent.id : parseReference(agent)[1];
    if (!agentId) return Promise.reject(invalid('The agent has no id'));
    const target =
      typeof destination === 'string'
        ? destination
        : 'resourceType' in destination
          ? referenceTo(destination).reference
          : destination.reference;
    return this.post(
      this.urls.fhirUrl('Agent', agentId, '$push'),
      { destination: target, body, contentType, waitForResponse },
      FHIR_JSON,
      options,
    );
  }

  /** `StructureDefinition/$expand-profile`: the profile and the profiles it depends on. */
  expandProfile(url: string, options: RequestOptions = {}): Promise<Bundle<StructureDefinition>> {
    const endpoint = this.urls.fhirUrl('StructureDefinition', '$expand-profile');
    endpoint.searchParams.set('url', url);
    const parameters: Parameters = { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: url }] };
    return this.post(endpoint, parameters, FHIR_JSON, options);
  }

  /** A short-lived token that binds a websocket to a Subscription, and where to connect. Never cached. */
  async getSubscriptionBindingToken(id: string, options: RequestOptions = {}): Promise<SubscriptionBindingToken> {
    if (!id) throw invalid('The resource id must not be empty');
    const parameters = (await this.send({
      ...options,
      method: 'GET',
      url: this.urls.fhirUrl('Subscription', id, '$get-ws-binding-token').toString(),
    })) as Parameters | undefined;
    const find = (name: string) => parameters?.parameter?.find((parameter) => parameter.name === name);
    const token = find('token')?.valueString;
    if (!token) throw new OperationOutcomeError(serverError('Failed to get token'), 502);
    const websocketUrl = find('websocket-url')?.valueUrl ?? find('websocket-url')?.valueString;
    if (!websocketUrl) {
      throw new OperationOutcomeError(serverError('Failed to get URL from $get-ws-binding-token'), 502);
    }
    const expiration = find('expiration')?.valueDateTime;
    return { token, websocketUrl, ...(expiration ? { expiration } : {}) };
  }

  // ---------------------------------------------------------------------------------------------
  // Files

  /**
   * Uploads bytes as a Binary (`POST Binary?_filename=`). Progress comes from XMLHttpRequest in
   * the browser; where there is none (Node), only the start and the end are reported.
   */
  async createBinary(upload: BinaryUpload, options: RequestOptions = {}): Promise<Binary> {
    if (!upload.contentType) throw invalid('Missing contentType');
    const url = this.urls.fhirUrl('Binary');
    if (upload.filename) url.searchParams.set('_filename', upload.filename);
    const headers: Record<string, string> = { ...options.headers };
    if (upload.securityContext?.reference) headers['X-Security-Context'] = upload.securityContext.reference;
    const { onProgress } = upload;
    const withXhr = onProgress !== undefined && canReportUploadProgress();
    const total = byteLength(upload.data);
    if (onProgress && !withXhr) onProgress({ loaded: 0, total, lengthComputable: true });
    const binary = (await this.send({
      ...options,
      method: 'POST',
      url: url.toString(),
      headers,
      body: upload.data,
      contentType: upload.contentType,
      transport: withXhr ? createXhrUploadFetch(onProgress) : undefined,
    })) as Binary;
    if (onProgress && !withXhr) onProgress({ loaded: total, total, lengthComputable: true });
    return binary;
  }

  /** Uploads a file and returns the Attachment that points to it. */
  async createAttachment(upload: BinaryUpload, options: RequestOptions = {}): Promise<Attachment> {
    const binary = await this.createBinary(upload, options);
    return {
      contentType: upload.contentType,
      url: binary.url ?? `Binary/${binary.id}`,
      ...(upload.filename ? { title: upload.filename } : {}),
    };
  }

  /** A Media resource for an upload: created as `preparation`, completed once the file is stored. */
  async createMedia(upload: MediaUpload, options: RequestOptions = {}): Promise<Media> {
    const { additionalFields, ...file } = upload;
    const media = await this.createResource<Media>(
      {
        ...additionalFields,
        resourceType: 'Media',
        status: 'preparation',
        content: { contentType: upload.contentType },
      },
      options,
    );
    const content = await this.createAttachment({ ...file, securityContext: referenceTo(media) }, options);
    return this.updateResource<Media>({ ...media, status: 'completed', content }, options);
  }

  /** A comment on a resource: a completed Communication from the signed-in profile. */
  async createComment(resource: Resource, text: string, options: RequestOptions = {}): Promise<Communication> {
    const about = referenceTo(resource);
    const fields = resource as { subject?: Reference; encounter?: Reference; patient?: Reference };
    const ofPatientOrGroup = (reference: Reference | undefined) =>
      reference?.reference && /^(Patient|Group)\//.test(reference.reference)
        ? (reference as Communication['subject'])
        : undefined;
    const subject =
      resource.resourceType === 'Patient'
        ? (about as Communication['subject'])
        : (ofPatientOrGroup(fields.subject) ?? ofPatientOrGroup(fields.patient));
    const encounter =
      resource.resourceType === 'Encounter'
        ? (about as Communication['encounter'])
        : fields.encounter?.reference?.startsWith('Encounter/')
          ? (fields.encounter as Communication['encounter'])
          : undefined;
    const profile = this.getProfile();
    const sender =
      profile && ['Patient', 'Practitioner', 'RelatedPerson'].includes(profile.resourceType)
        ? (referenceTo(profile) as Communication['sender'])
        : undefined;
    return this.createResource<Communication>(
      {
        resourceType: 'Communication',
        status: 'completed',
        basedOn: [about],
        ...(encounter ? { encounter } : {}),
        ...(subject ? { subject } : {}),
        ...(sender ? { sender } : {}),
        sent: new Date().toISOString(),
        payload: [{ contentString: text }],
      },
      options,
    );
  }

  /** Renders a PDF with the configured implementation and stores it as a Binary. */
  async createPdf(request: CreatePdfRequest, options: RequestOptions = {}): Promise<Binary> {
    if (!this.createPdfImpl) throw invalid('PDF creation not enabled');
    const bytes = await this.createPdfImpl(request.docDefinition, request.tableLayouts, request.fonts);
    return this.createBinary(
      {
        data: bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes,
        contentType: 'application/pdf',
        filename: request.filename,
        onProgress: request.onProgress,
      },
      options,
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Other services

  sendEmail(email: EmailMessage, options: RequestOptions = {}): Promise<OperationOutcome> {
    return this.post(this.urls.url('email/v1/send'), email, 'application/json', options);
  }

  /** Invites a person to a project (admin/projects/{id}/invite). */
  invite(projectId: string, body: InviteRequest, options: RequestOptions = {}): Promise<ProjectMembership> {
    if (!projectId) return Promise.reject(invalid('Missing project id'));
    return this.post(
      this.urls.url(`admin/projects/${encodeURIComponent(projectId)}/invite`),
      body,
      'application/json',
      options,
    );
  }

  /** Per-user text values kept by the server (keyvalue/v1/{key}). */
  readonly keyValue = {
    get: async (key: string, options: RequestOptions = {}): Promise<string | undefined> => {
      try {
        return (await this.send({
          ...options,
          method: 'GET',
          url: this.keyValueUrl(key),
          responseType: 'text',
        })) as string;
      } catch (error) {
        if (error instanceof OperationOutcomeError && error.status === 404) return undefined;
        throw error;
      }
    },
    set: async (key: string, value: string, options: RequestOptions = {}): Promise<void> => {
      await this.send({
        ...options,
        method: 'PUT',
        url: this.keyValueUrl(key),
        body: value,
        contentType: 'text/plain',
      });
    },
    delete: async (key: string, options: RequestOptions = {}): Promise<void> => {
      await this.send({ ...options, method: 'DELETE', url: this.keyValueUrl(key) });
    },
  };

  private keyValueUrl(key: string): string {
    if (!key) throw invalid('Missing key');
    return this.urls.url(`keyvalue/v1/${encodeURIComponent(key)}`).toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Sign-in (auth/*)

  private async startPkce(): Promise<{ codeChallenge: string; codeChallengeMethod: string }> {
    const verifier = createCodeVerifier();
    this.logins.setCodeVerifier(verifier);
    return { codeChallenge: await createCodeChallenge(verifier), codeChallengeMethod: PKCE_METHOD };
  }

  private postAuth<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.post(this.urls.url(path), body, 'application/json', options);
  }

  /** Email and password; the answer has a code to exchange, or asks for MFA or a membership choice. */
  async startLogin(request: LoginRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    // A third-party app's sign-in (the /oauth page) brings its own client id and PKCE challenge.
    const pkce = request.codeChallenge
      ? { codeChallenge: request.codeChallenge, codeChallengeMethod: request.codeChallengeMethod }
      : await this.startPkce();
    return this.postAuth(
      'auth/login',
      { ...request, ...pkce, clientId: request.clientId ?? this.clientId, scope: request.scope ?? DEFAULT_SCOPE },
      options,
    );
  }

  /**
   * Starts a third-party app's sign-in as the person signed in here (their session's bearer token),
   * instead of asking for the password again; the answer's next step is the consent or a code.
   */
  continueSignIn(request: ContinueSignInRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/continue', request, options);
  }

  /**
   * `GET auth/continue/launch/{launch}`: could the session this client holds continue into the EHR
   * launch an app was opened with? (The `/oauth` page offers only the accounts that can.)
   */
  getLaunchAvailability(launch: string, options: RequestOptions = {}): Promise<LaunchAvailability> {
    const url = this.urls.url(`auth/continue/launch/${encodeURIComponent(launch)}`);
    return this.get(url, { ...options, cache: 'no-store' });
  }

  verifyMfa(login: string, token: string, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/mfa/verify', { login, token }, options);
  }

  /** Picks the membership (profile) a login acts as. */
  chooseProfile(login: string, profile: string, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/profile', { login, profile }, options);
  }

  /** The scopes granted to a third-party app, and for a clinician's standalone launch the patient chosen. */
  chooseScope(login: string, scope: string, patient?: string, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/scope', { login, scope, ...(patient ? { patient } : {}) }, options);
  }

  /** The patients a sign-in's person may choose for a standalone-launched app, by name, birth date or record number. */
  async searchLaunchPatients(
    login: string,
    /** A name, a birth date or a record number (patientLookupQuery). */
    text: string,
    options: RequestOptions = {},
  ): Promise<LaunchPatientOption[]> {
    const url = this.urls.url(`auth/login/${encodeURIComponent(login)}/patients`);
    url.searchParams.set('text', text);
    const answer = await this.get<{ patients: LaunchPatientOption[] }>(url, { ...options, cache: 'no-store' });
    return answer.patients;
  }

  async startNewUser(request: NewUserRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/newuser', { ...request, ...(await this.startPkce()), clientId: this.clientId }, options);
  }

  startNewProject(request: NewProjectRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/newproject', request, options);
  }

  startNewPatient(request: NewPatientRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth('auth/newpatient', request, options);
  }

  async startGoogleLogin(request: GoogleLoginRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    return this.postAuth(
      'auth/google',
      { ...request, ...(await this.startPkce()), clientId: this.clientId, scope: request.scope ?? DEFAULT_SCOPE },
      options,
    );
  }

  /**
   * `POST auth/method`: password, or the authorize address of the e-mail domain's identity provider.
   * Without a code challenge in the request a fresh PKCE pair of this client is used (the verifier is
   * kept for `processCode` when the browser comes back).
   */
  async getAuthMethod(request: AuthMethodRequest, options: RequestOptions = {}): Promise<AuthMethodResponse> {
    const pkce = request.codeChallenge
      ? { codeChallenge: request.codeChallenge, codeChallengeMethod: request.codeChallengeMethod }
      : await this.startPkce();
    return this.postAuth('auth/method', { ...request, ...pkce, clientId: request.clientId ?? this.clientId }, options);
  }

  /** `GET auth/login/{login}`: where a sign-in in progress stands (MFA still due, memberships to choose from). */
  getLoginStatus(login: string, options: RequestOptions = {}): Promise<LoginStatus> {
    return this.get(this.urls.url(`auth/login/${encodeURIComponent(login)}`), { ...options, cache: 'no-store' });
  }

  /** `GET auth/clientinfo/{clientId}`: the name of the app a sign-in is for (public, like the client id). */
  getClientInfo(clientId: string, options: RequestOptions = {}): Promise<ClientInfo> {
    return this.get(this.urls.url(`auth/clientinfo/${encodeURIComponent(clientId)}`), options);
  }

  /** `GET auth/registration`: whether this server lets people register and its Google client id. */
  getRegistrationOptions(options: RequestOptions = {}): Promise<RegistrationOptions> {
    return this.get(this.urls.url('auth/registration'), { ...options, cache: 'no-store' });
  }

  /** Asks for a password reset link by e-mail; the answer is the same whether or not the account exists. */
  resetPassword(email: string, options: RequestOptions = {}): Promise<{ ok: boolean }> {
    return this.postAuth('auth/resetpassword', { email }, options);
  }

  /** Sets a new password with the id and secret of a reset link. */
  setPassword(id: string, secret: string, password: string, options: RequestOptions = {}): Promise<{ ok: boolean }> {
    return this.postAuth('auth/setpassword', { id, secret, password }, options);
  }

  /**
   * Exchanges an authorization code for tokens (with the PKCE verifier kept at sign-in start),
   * makes the login active and loads the session. `state`, when given, must be the one this
   * client sent to the authorize endpoint.
   */
  async processCode(
    code: string,
    options: { redirectUri?: string; state?: string } = {},
  ): Promise<ProfileResource | undefined> {
    if (!code) throw invalid('Missing code');
    if (options.state !== undefined && options.state !== this.logins.getOAuthState()) {
      this.logins.clearPendingSignIn();
      throw invalid('The sign-in answer does not match the request that started it; please sign in again');
    }
    const form = new URLSearchParams({ grant_type: 'authorization_code', code });
    const verifier = this.logins.getCodeVerifier();
    if (verifier) form.set('code_verifier', verifier);
    if (this.clientId) form.set('client_id', this.clientId);
    if (options.redirectUri) form.set('redirect_uri', options.redirectUri);
    try {
      await this.fetchTokens(form, 'new');
    } finally {
      this.logins.clearPendingSignIn();
    }
    return this.refreshProfile();
  }

  /** The authorize URL of the OAuth2 code flow, with fresh state and PKCE values kept in storage. */
  async buildAuthorizeRedirectUrl(options: { redirectUri: string; scope?: string }): Promise<URL> {
    if (!this.clientId) throw invalid('Sign-in by redirect needs a client id');
    const state = createRandomString(32);
    this.logins.setOAuthState(state);
    const { codeChallenge, codeChallengeMethod } = await this.startPkce();
    const url = new URL(this.urls.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('state', state);
    url.searchParams.set('client_id', this.clientId);
    url.searchParams.set('redirect_uri', options.redirectUri);
    url.searchParams.set('code_challenge', codeChallenge);
    url.searchParams.set('code_challenge_method', codeChallengeMethod);
    url.searchParams.set('scope', options.scope ?? DEFAULT_SCOPE);
    return url;
  }

  /**
   * Browser sign-in by redirect: on the way back (a `code` in the address) exchanges the code;
   * otherwise sends the browser to the authorize endpoint and resolves undefined.
   */
  async signInWithRedirect(
    options: { redirectUri?: string; scope?: string } = {},
  ): Promise<ProfileResource | undefined> {
    if (typeof location === 'undefined') throw invalid('Sign-in by redirect needs a browser');
    const redirectUri = options.redirectUri ?? `${location.origin}${location.pathname}`;
    const params = new URLSearchParams(location.search);
    const code = params.get('code');
    if (code) return this.processCode(code, { redirectUri, state: params.get('state') ?? '' });
    location.assign((await this.buildAuthorizeRedirectUrl({ redirectUri, scope: options.scope })).toString());
    return undefined;
  }

  /** The authorize URL of an external identity provider (spec §5: needs a code challenge and its method). */
  getExternalAuthRedirectUri(
    authorizeUrl: string,
    clientId: string,
    redirectUri: string,
    request: ExternalAuthRequest,
  ): string {
    if (!request.codeChallenge || !request.codeChallengeMethod) {
      throw invalid('The external sign-in request needs a code challenge and a code challenge method');
    }
    const url = new URL(authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('scope', request.scope ?? DEFAULT_SCOPE);
    url.searchParams.set('state', JSON.stringify(request));
    url.searchParams.set('code_challenge', request.codeChallenge);
    url.searchParams.set('code_challenge_method', request.codeChallengeMethod);
    return url.toString();
  }

  /** Trades an access token from another issuer for one of ours (token exchange grant). */
  async exchangeExternalAccessToken(token: string, clientId = this.clientId): Promise<ProfileResource | undefined> {
    if (!clientId) throw invalid('Token exchange needs a client id');
    await this.fetchTokens(
      new URLSearchParams({
        grant_type: tokenExchangeGrant,
        subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        subject_token: token,
        client_id: clientId,
      }),
      'new',
    );
    return this.refreshProfile();
  }

  /** A ClientApplication signing in as itself (client_credentials). */
  async startClientLogin(clientId: string, clientSecret: string): Promise<ProfileResource | undefined> {
    await this.fetchTokens(
      new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      'new',
    );
    return this.refreshProfile();
  }

  /** jwt-bearer grant: a signed assertion stands for the user. */
  async startJwtBearerLogin(
    clientId: string,
    assertion: string,
    scope = DEFAULT_SCOPE,
  ): Promise<ProfileResource | undefined> {
    await this.fetchTokens(
      new URLSearchParams({ grant_type: jwtBearerGrant, client_id: clientId, assertion, scope }),
      'new',
    );
    return this.refreshProfile();
  }

  /** client_credentials with a signed client assertion instead of a secret. */
  async startJwtAssertionLogin(jwt: string): Promise<ProfileResource | undefined> {
    await this.fetchTokens(
      new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: jwtAssertionType,
        client_assertion: jwt,
      }),
      'new',
    );
    return this.refreshProfile();
  }

  /**
   * POSTs a token request. A refused request clears the active login (spec §8) and throws with
   * the server's error_description, or 'Failed to fetch tokens'.
   */
  private async fetchTokens(form: URLSearchParams, mode: 'new' | 'refresh'): Promise<void> {
    const response = await fetchWithRetry(
      this.fetchFn,
      this.urls.tokenUrl,
      {
        method: 'POST',
        headers: { Accept: 'application/json', 'Content-Type': FORM_URLENCODED },
        body: form.toString(),
      },
      this.retryPolicy,
    );
    let body: unknown;
    if (isJsonContentType(response.headers.get('content-type'))) body = await response.json().catch(() => undefined);
    else await discardBody(response);
    const tokens = body as (Partial<TokenResponse> & { error_description?: unknown }) | undefined;
    if (!response.ok || typeof tokens?.access_token !== 'string') {
      this.clearActiveLogin();
      const text =
        typeof tokens?.error_description === 'string' && tokens.error_description
          ? tokens.error_description
          : 'Failed to fetch tokens';
      throw new OperationOutcomeError(badRequest(text), response.ok ? 502 : response.status);
    }
    this.acceptTokens(tokens as TokenResponse, mode);
  }

  private acceptTokens(tokens: TokenResponse, mode: 'new' | 'refresh'): void {
    const problem = accessTokenProblem(tokens.access_token, this.clientId, Date.now());
    if (problem) {
      this.clearActiveLogin();
      throw new OperationOutcomeError(problem, 401);
    }
    const previous = mode === 'refresh' ? this.activeLogin : undefined;
    if (mode === 'new') this.sessionDetails = undefined;
    this.adoptLogin(loginFromTokens(tokens, previous), previous);
  }

  /**
   * Renews the access token with the refresh token; concurrent callers share one renewal. If it
   * fails the session ends: login cleared, onUnauthenticated called, and the promise rejects.
   */
  refresh(): Promise<void> {
    this.refreshPromise ??= this.refreshTokens()
      .catch((error: unknown) => {
        this.endSession();
        throw new OperationOutcomeError(unauthorized(), 401, { cause: error });
      })
      .finally(() => {
        this.refreshPromise = undefined;
      });
    return this.refreshPromise;
  }

  private async refreshTokens(): Promise<void> {
    const login = this.activeLogin;
    if (!login?.refreshToken) throw invalid('No refresh token');
    await withAccountRenewalLock(login, async () => {
      // Switched or renewed in this client while waiting: nothing of this renewal is left to do.
      if (this.activeLogin !== login) return;
      // Another tab renewed this account while this one waited: the refresh token held here is
      // spent (presenting it would end the session everywhere), the stored tokens are the ones.
      const renewed = renewedInStorage(this.logins, login);
      if (renewed) {
        this.adoptLogin(renewed, login);
        if (!this.expiresWithinGracePeriod()) return;
      }
      const latest = this.activeLogin;
      if (!latest?.refreshToken) throw invalid('No refresh token');
      await this.fetchTokens(refreshGrantForm(latest.refreshToken, this.clientId), 'refresh');
    });
  }

  private expiresWithinGracePeriod(): boolean {
    return this.activeLoginExpiresAt !== undefined && this.activeLoginExpiresAt - Date.now() < REFRESH_GRACE_PERIOD;
  }

  private async refreshIfExpiring(): Promise<void> {
    if (this.refreshPromise) {
      await this.refreshPromise;
      return;
    }
    if (!this.activeLogin?.refreshToken) return;
    if (this.expiresWithinGracePeriod()) await this.refresh();
  }

  private endSession(): void {
    this.clearActiveLogin();
    this.onUnauthenticated?.();
  }

  // ---------------------------------------------------------------------------------------------
  // Session

  private setLoginInMemory(login: LoginState | undefined): void {
    this.activeLogin = login;
    this.activeLoginExpiresAt = login ? tokenExpiresAt(decodeAccessTokenClaims(login.accessToken)) : undefined;
  }

  private adoptLogin(login: LoginState, replacing?: LoginState): void {
    if (replacing) this.logins.removeLogin(replacing);
    this.logins.setActiveLogin(login);
    this.setLoginInMemory(login);
    this.dispatchEvent(new Event('change'));
  }

  /** Signed in, and the access token is not within the refresh grace period of its expiry. */
  isAuthenticated(): boolean {
    if (!this.activeLogin) return false;
    return this.activeLoginExpiresAt === undefined || Date.now() < this.activeLoginExpiresAt - REFRESH_GRACE_PERIOD;
  }

  getAccessToken(): string | undefined {
    return this.activeLogin?.accessToken;
  }

  getActiveLogin(): LoginState | undefined {
    return this.activeLogin;
  }

  /** Every account signed in on this device, for an account switcher. */
  getLogins(): LoginState[] {
    return this.logins.getLogins();
  }

  /**
   * The session of a stored login that is not the active one, read with its own token (renewed
   * first when expired); the active login stays active. Rejects with a 401 when that account must
   * sign in again.
   */
  getStoredLoginSession(login: LoginState, options: RequestOptions = {}): Promise<StoredLoginSession> {
    return this.storedLogins.session(login, options.signal);
  }

  /** `getLaunchAvailability` as a stored login that is not the active one, with its own token. */
  getStoredLaunchAvailability(
    login: LoginState,
    launch: string,
    options: RequestOptions = {},
  ): Promise<LaunchAvailability> {
    return this.storedLogins.launchAvailability(login, launch, options.signal);
  }

  /**
   * `continueSignIn` as a stored login that is not the active one (the `/oauth` account chooser):
   * its token, not the active one's, and a 401 does not end the active session.
   */
  continueSignInAs(login: LoginState, request: ContinueSignInRequest): Promise<LoginResponse> {
    return this.storedLogins.continueSignIn(login, request);
  }

  /**
   * Uses a token obtained elsewhere (a bot, a test). Refused when it was issued to another client,
   * or when it has expired and there is no refresh token to renew it.
   */
  setAccessToken(accessToken: string, refreshToken?: string): void {
    this.checkLoginUsable({ accessToken, refreshToken });
    this.sessionDetails = undefined;
    this.cache.clear();
    this.adoptLogin({ accessToken, refreshToken });
  }

  /**
   * Switches to a stored login and loads its session. An expired token is renewed first when the
   * login has a refresh token; otherwise, and for a token of another client, the login is cleared
   * and the call fails.
   */
  async setActiveLogin(login: LoginState): Promise<ProfileResource | undefined> {
    this.checkLoginUsable(login);
    this.sessionDetails = undefined;
    this.cache.clear();
    this.adoptLogin(login);
    if (isTokenExpired(login.accessToken, Date.now())) await this.refresh();
    return this.refreshProfile();
  }

  private checkLoginUsable(login: LoginState): void {
    const problem = accessTokenProblem(login.accessToken, this.clientId, Date.now());
    const renewable = login.refreshToken !== undefined && isTokenExpired(login.accessToken, Date.now());
    if (problem && !(renewable && problem.issue[0]?.details?.coding?.[0]?.code === 'expired')) {
      this.logins.removeLogin(login);
      this.clearActiveLogin();
      throw new OperationOutcomeError(problem, 401);
    }
  }

  /** Loads profile, project, membership, configuration and access policy (GET auth/me). */
  refreshProfile(): Promise<ProfileResource | undefined> {
    if (!this.activeLogin) return Promise.resolve(undefined);
    this.profilePromise ??= this.loadSessionDetails().finally(() => {
      this.profilePromise = undefined;
    });
    return this.profilePromise;
  }

  private async loadSessionDetails(): Promise<ProfileResource | undefined> {
    const details = await this.get<SessionDetails>(this.urls.url('auth/me'), { cache: 'no-store' });
    // Signed out while the answer was on its way: it belongs to nobody now.
    if (!this.activeLogin) return undefined;
    this.sessionDetails = details;
    const login = this.activeLogin;
    if (details?.profile?.id && details.project?.id && (!login.profile || !login.project)) {
      this.adoptLogin(
        {
          ...login,
          profile: login.profile ?? referenceTo(details.profile),
          project: login.project ?? referenceTo(details.project),
        },
        login,
      );
    } else {
      this.dispatchEvent(new Event('change'));
    }
    return details?.profile;
  }

  getProfile(): ProfileResource | undefined {
    return this.sessionDetails?.profile;
  }

  /** The profile, waiting for (or starting) the session load when there is a login but no profile yet. */
  async getProfileAsync(): Promise<ProfileResource | undefined> {
    if (this.profilePromise) return this.profilePromise;
    if (!this.sessionDetails && this.activeLogin) return this.refreshProfile();
    return this.getProfile();
  }

  getProject(): Project | undefined {
    return this.sessionDetails?.project;
  }

  /** The signed-in account (e-mail, names) from `auth/me`; undefined for a client signed in as itself. */
  getSessionUser(): SessionDetails['user'] {
    return this.sessionDetails?.user;
  }

  getProjectMembership(): ProjectMembership | undefined {
    return this.sessionDetails?.membership;
  }

  getUserConfiguration(): UserConfiguration | undefined {
    return this.sessionDetails?.config;
  }

  getAccessPolicy(): AccessPolicy | undefined {
    return this.sessionDetails?.accessPolicy;
  }

  /** From the project's superAdmin flag (spec §6). */
  isSuperAdmin(): boolean {
    return this.sessionDetails?.project?.superAdmin === true;
  }

  /** From the membership's admin flag (spec §6). */
  isProjectAdmin(): boolean {
    return this.sessionDetails?.membership?.admin === true;
  }

  /** Forgets the active login (not the others on the device), its session and the cache. */
  clearActiveLogin(): void {
    this.logins.clearActiveLogin();
    this.setLoginInMemory(undefined);
    this.sessionDetails = undefined;
    this.cache.clear();
    this.dispatchEvent(new Event('change'));
  }

  /** Forgets every login on this device. */
  clear(): void {
    this.logins.clear();
    this.clearActiveLogin();
  }

  /** Tells the server (oauth2/logout) and removes the active login from this device. */
  async signOut(): Promise<void> {
    const login = this.activeLogin;
    const sessionProfile = this.getProfile();
    const profile =
      login?.profile?.reference ?? (sessionProfile ? `${sessionProfile.resourceType}/${sessionProfile.id}` : undefined);
    if (login) {
      try {
        const response = await this.fetchFn(this.urls.logoutUrl, {
          method: 'POST',
          headers: { Accept: 'application/json', Authorization: `Bearer ${login.accessToken}` },
        });
        await discardBody(response);
      } catch {
        // The local session ends even when the server cannot be told.
      }
      this.logins.removeLogin(login);
    }
    this.clearActiveLogin();
    if (login) this.dispatchEvent(new SignOutEvent(profile));
  }
}
