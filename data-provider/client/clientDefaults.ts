/** The client's constants and limits (data-and-client-layer-spec.md §9). */

export const DEFAULT_FHIR_URL_PATH = 'fhir/R4';
/** Where the client talks to when no base URL is given outside a browser (the server's default port). */
export const DEFAULT_NODE_BASE_URL = 'http://localhost:8103/';

/** GET responses are reused for this long in the browser; outside it nothing is cached. */
export const BROWSER_CACHE_TIME = 60_000;
export const NODE_CACHE_TIME = 0;
export const DEFAULT_RESOURCE_CACHE_SIZE = 1000;

/** GETs issued within this window go out as one batch; 0 disables batching. */
export const DEFAULT_AUTO_BATCH_TIME = 100;

/** An access token that expires within this time is refreshed before the next request. */
export const REFRESH_GRACE_PERIOD = 300_000;

/** Extra tries after a 5xx answer or a network failure, and the wait between tries. */
export const MAX_RETRIES = 2;
export const RETRY_DELAY = 200;

/** Wait between status checks of an asynchronous (202) request. */
export const POLL_INTERVAL = 1000;

export const PKCE_VERIFIER_LENGTH = 128;
export const PKCE_METHOD = 'S256';
export const DEFAULT_SCOPE = 'openid profile';

export const FHIR_JSON = 'application/fhir+json';
export const JSON_PATCH = 'application/json-patch+json';
export const FORM_URLENCODED = 'application/x-www-form-urlencoded';
/** FHIR JSON first, anything else (binaries, bot output) accepted. */
export const DEFAULT_ACCEPT = 'application/fhir+json, */*; q=0.1';
