import { resolve } from 'node:path';
import {
  defaultResourceLimits,
  resourceLimitVariables,
  type ResourceLimits,
} from '../server/validation/resourceLimits';

/** Server settings from the environment (ARCHITECTURE.md "One process, one command"). */
export interface ServerConfig {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl?: string;
  adminEmail: string;
  adminPassword?: string;
  seed: 'demo' | 'none';
  /** Largest accepted request body in bytes. */
  maxBodyBytes: number;
  /**
   * What one resource may cost to validate and store (RESOURCE_MAX_BYTES, RESOURCE_MAX_ELEMENTS,
   * RESOURCE_MAX_STRING_LENGTH, RESOURCE_MAX_INDEX_VALUES, RESOURCE_MAX_INDEX_TEXT); larger ones
   * answer 413 (server/validation/resourceLimits.ts says why the defaults).
   */
  resourceLimits: ResourceLimits;
  /** Google sign-in is offered only when this is set. */
  googleClientId?: string;
  /** Where Google's ID-token signing keys are fetched (overridable for tests and air-gapped sites). */
  googleJwksUrl: string;
  /** `open`: anyone may register a user and a project; `closed`: only invitations. */
  registration: 'open' | 'closed';
  /** Password of the demo clinic's accounts; generated (and written to DATA_DIR) when unset. */
  demoPassword?: string;
  /** Folder of the built web app (WEB_ROOT); the repository's dist/ when unset. */
  webRoot?: string;
  /** Largest Binary upload in bytes (BINARY_MAX_BYTES); larger ones answer 413. */
  binaryMaxBytes: number;
  /** How long a bot may run before it is stopped (BOT_TIMEOUT_MS). */
  botTimeoutMs: number;
  /**
   * `host:port` entries a bot's `fetch` may reach although they are loopback, private or link-local
   * (BOT_FETCH_ALLOWED_HOSTS, comma-separated); none by default.
   */
  botFetchAllowedHosts: string[];
  /** How often bound realtime subscriptions get a heartbeat (REALTIME_HEARTBEAT_MS). */
  realtimeHeartbeatMs: number;
  /** SMTP server for outgoing e-mail (SMTP_URL, e.g. smtp://user:pass@host:587); the DATA_DIR outbox when unset. */
  smtpUrl?: string;
  /** Sender address of outgoing e-mail (EMAIL_FROM); `Hearth EMR <noreply@host of BASE_URL>` when unset. */
  emailFrom?: string;
  /**
   * Origins the web app may show in frames besides DoseSpot's (APP_FRAME_ORIGINS, comma-separated,
   * e.g. a local e-prescribing test server); added to the app's CSP frame-src.
   */
  appFrameOrigins: string[];
  /** Messages a project (not a super admin) may send through /email/v1/send per hour (EMAIL_PROJECT_HOURLY_LIMIT). */
  emailProjectHourlyLimit: number;
  /**
   * How long one SQL statement of a request may run on native PostgreSQL before the database
   * cancels it (DATABASE_STATEMENT_TIMEOUT_MS); 0: no timeout of the server's own.
   */
  databaseStatementTimeoutMs: number;
}

export function loadServerConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8103);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  const seed = (env.SEED ?? 'demo').toLowerCase();
  if (seed !== 'demo' && seed !== 'none') throw new Error(`SEED must be "demo" or "none", not "${env.SEED}"`);
  const maxBodyBytes = Number(env.MAX_BODY_BYTES ?? 64 * 1024 * 1024);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0)
    throw new Error('MAX_BODY_BYTES must be a positive whole number');
  const registration = (env.REGISTRATION ?? 'open').toLowerCase();
  if (registration !== 'open' && registration !== 'closed')
    throw new Error(`REGISTRATION must be "open" or "closed", not "${env.REGISTRATION}"`);
  const baseUrl = env.BASE_URL ?? `http://localhost:${port}/`;
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    baseUrl: baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminEmail: env.ADMIN_EMAIL ?? 'admin@example.com',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    seed,
    maxBodyBytes,
    resourceLimits: parseResourceLimits(env),
    googleClientId: env.GOOGLE_CLIENT_ID || undefined,
    googleJwksUrl: env.GOOGLE_JWKS_URL || 'https://www.googleapis.com/oauth2/v3/certs',
    registration,
    demoPassword: env.DEMO_PASSWORD || undefined,
    webRoot: env.WEB_ROOT ? resolve(env.WEB_ROOT) : undefined,
    binaryMaxBytes: positiveInteger(env, 'BINARY_MAX_BYTES', 100 * 1024 * 1024),
    botTimeoutMs: positiveInteger(env, 'BOT_TIMEOUT_MS', 10_000),
    botFetchAllowedHosts: parseAllowedHosts(env.BOT_FETCH_ALLOWED_HOSTS),
    realtimeHeartbeatMs: positiveInteger(env, 'REALTIME_HEARTBEAT_MS', 10_000),
    smtpUrl: smtpUrl(env.SMTP_URL),
    emailFrom: env.EMAIL_FROM || undefined,
    appFrameOrigins: parseOrigins(env.APP_FRAME_ORIGINS),
    emailProjectHourlyLimit: positiveInteger(env, 'EMAIL_PROJECT_HOURLY_LIMIT', 100),
    // PostgreSQL's statement_timeout is a 32-bit count of milliseconds: larger values fail every connection.
    databaseStatementTimeoutMs: wholeNumberOrZero(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 30_000, 2_147_483_647),
  };
}

/** BOT_FETCH_ALLOWED_HOSTS: comma-separated `host:port` (IPv6 as `[::1]:8080`), normalised to lower case. */
export function parseAllowedHosts(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry);
      if (!match || Number(match[2]) > 65535) {
        throw new Error(`BOT_FETCH_ALLOWED_HOSTS entries must be host:port, not "${entry}"`);
      }
      return `${match[1].replace(/^\[|\]$/g, '').toLowerCase()}:${Number(match[2])}`;
    });
}

/** APP_FRAME_ORIGINS: comma-separated http(s) origins (scheme, host and port only). */
function parseOrigins(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== entry.replace(/\/$/, '')) {
        throw new Error(`APP_FRAME_ORIGINS entries must be origins like https://host:port, not "${entry}"`);
      }
      return url.origin;
    });
}

function smtpUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^smtps?:\/\/[^/]+/.test(value))
    throw new Error('SMTP_URL must look like smtp://user:password@host:port or smtps://…');
  return value;
}

function parseResourceLimits(env: NodeJS.ProcessEnv): ResourceLimits {
  const limits = { ...defaultResourceLimits };
  for (const key of Object.keys(resourceLimitVariables) as (keyof ResourceLimits)[]) {
    limits[key] = positiveInteger(env, resourceLimitVariables[key], defaultResourceLimits[key]);
  }
  return limits;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
}

/** For settings that 0 turns off: an empty value is refused rather than read as 0 (`Number('')`). */
function wholeNumberOrZero(env: NodeJS.ProcessEnv, name: string, fallback: number, max: number): number {
  const text = env[name];
  const value = text === undefined ? fallback : text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isInteger(value) || value < 0 || value > max)
    throw new Error(`${name} must be a whole number from 0 (off) to ${max}, not "${text}"`);
  return value;
}

/** Until sign-in exists, the server must not be reachable from other machines. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
