import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Database } from './storage/database';
import { isBrowserPageRequest } from './browserPageRequest';
import { errors, FhirError, outcomeOf } from './fhir/fhirError';
import { drainRequest } from './fhir/requestDrain';
import { checkJsonInput, checkStorableText } from './fhir/jsonInputCheck';
import { fhirRestRoutes } from './fhir/restRoutes';
import {
  configureResourceLimits,
  defaultResourceLimits,
  resourceBodyLimit,
  resourceLimits,
  type ResourceLimits,
} from './validation/resourceLimits';
import { conditionalAndScopedRoutes } from './fhir/conditionalAndScopedRoutes';
import { reindexRoutes } from './search/reindexRoutes';
import { terminologyRoutes } from './terminology/terminologyRoutes';
import { graphqlRoutes } from './graphql/graphqlRoutes';
import type { RequestContext } from './fhir/repository';
import type { AuthEnvironment } from './auth/authEnvironment';
import { authenticate, authenticateForRead, callerOf, withCheckedCaller } from './auth/authenticate';
import { authRoutes } from './auth/authRoutes';
import { mfaRoutes } from './auth/mfaRoutes';
import { sessionContinuationRoutes } from './auth/sessionContinuation';
import { clientInfoRoutes } from './auth/clientInfoRoute';
import { launchPatientRoutes } from './auth/launchPatientChoice';
import { externalAuthRoutes } from './auth/externalAuthRoutes';
import { oauthRoutes } from './auth/oauthRoutes';
import { smartDiscoveryRoutes } from './auth/smartDiscovery';
import { tokenIntrospectionRoutes } from './auth/tokenIntrospection';
import { loginPruningSweep } from './auth/loginPruningSweep';
import type { SearchParameterRegistry } from './search/searchParameterRegistry';
import { defaultHeartbeatMs, realtimeRoutes } from './realtime';
import { fhircastRoutes } from './fhircast';
import { addAttachmentUrlHooks, binaryRoutes, type BinaryEnvironment } from './binary';
import { botRoutes, type BotRunner } from './bots';
import { exportRoutes, operationRoutes } from './operations';
import { snapshotRoutes } from './profiles/snapshot';
import { emailRoutes } from './email';
import { keyValueRoutes } from './keyvalue';
import { adminRoutes } from './admin';
import { addSecurityHeaders } from './securityHeaders';
import { addCors } from './cors';

export interface AppOptions {
  db: Database;
  registry: SearchParameterRegistry;
  baseUrl: string;
  version: string;
  maxBodyBytes: number;
  /** What one resource may cost (RESOURCE_MAX_*); the defaults of resourceLimits.ts when unset. */
  resourceLimits?: ResourceLimits;
  /** Folder of the built web app; served at / when it exists. */
  webRoot?: string;
  auth: AuthEnvironment;
  /** Binary content storage and signed attachment URLs. */
  binary: BinaryEnvironment;
  /** Runs bots (`Bot/{id}/$execute`). */
  bots: BotRunner;
  logger?: boolean;
  /** Origins the web app may frame besides DoseSpot's (APP_FRAME_ORIGINS). */
  appFrameOrigins?: readonly string[];
  /** Heartbeat period of realtime subscriptions (REALTIME_HEARTBEAT_MS). */
  realtimeHeartbeatMs?: number;
}

const apiPrefixes = [
  '/fhir/',
  '/auth/',
  '/oauth2/',
  '/.well-known/',
  '/healthcheck',
  '/ws/',
  '/admin/',
  '/email/',
  '/keyvalue/',
  '/fhircast/',
  '/storage/',
];
const jsonTypes = ['application/json', 'application/fhir+json', 'application/json-patch+json'];

/** Builds the HTTP server (not yet listening): FHIR REST, health check and the web app. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  // validateResource and the write path read them wherever a resource is written.
  configureResourceLimits(options.resourceLimits ?? defaultResourceLimits);
  const singleResourceBodyLimit = resourceBodyLimit(options.maxBodyBytes, resourceLimits());
  const app = Fastify({
    logger: options.logger ? { level: 'info', redact: ['req.headers.authorization', 'req.headers.cookie'] } : false,
    bodyLimit: options.maxBodyBytes,
    // FHIR ids and search values may contain characters a strict router would refuse.
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: true },
  });
  const repository = options.auth.repository;
  const contextOf = (request: FastifyRequest): RequestContext => callerOf(request).ctx;

  addCors(app);
  addSecurityHeaders(app, {
    baseUrl: options.baseUrl,
    frameOrigins: options.appFrameOrigins,
    isApiRequest: (request) => {
      const path = request.url.split('?')[0];
      if (isBrowserPageRequest(request.method, path, request.headers.accept)) return false;
      return apiPrefixes.some((prefix) => path.startsWith(prefix));
    },
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(jsonTypes, { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body as string);
    } catch (error) {
      return done(errors.invalid(`Invalid JSON: ${(error as Error).message}`), undefined);
    }
    // Before any route walks it: bounded depth (no recursion overflows later), storable strings.
    try {
      checkJsonInput(parsed);
    } catch (error) {
      return done(error as FhirError, undefined);
    }
    done(null, parsed);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.setErrorHandler(async (error: FastifyError | FhirError, request, reply) => {
    if (error instanceof FhirError) {
      return reply.code(error.status).type('application/fhir+json').send(error.outcome);
    }
    const status = error.statusCode ?? 500;
    if (status === 413 || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // Read off the rest of the upload first: closing on a client that is still sending makes it
      // see a broken pipe instead of this answer.
      await drainRequest(request.raw, 30_000);
      reply.header('connection', 'close');
      const limit = request.routeOptions.bodyLimit ?? options.maxBodyBytes;
      const which =
        limit < options.maxBodyBytes
          ? 'for one resource (twice RESOURCE_MAX_BYTES; send it compact, or a large file as a Binary)'
          : '(MAX_BODY_BYTES)';
      return sendOutcome(reply, 413, 'too-long', `Request body is larger than the limit of ${limit} bytes ${which}`);
    }
    if (status === 415 || error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendOutcome(
        reply,
        415,
        'not-supported',
        `Unsupported content type "${request.headers['content-type'] ?? ''}"; use application/fhir+json`,
      );
    }
    if (status >= 400 && status < 500) {
      return sendOutcome(reply, status, 'invalid', error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .type('application/fhir+json')
      .send(
        outcomeOf([
          {
            severity: 'error',
            code: 'exception',
            details: { text: 'Internal server error' },
            diagnostics: error.message,
          },
        ]),
      );
  });

  // Query strings and route parameters reach SQL as text: refuse what text cannot hold, naming it.
  app.addHook('preValidation', async (request) => {
    checkRequestText(request.query, (key) => key);
    checkRequestText(request.params, (key, all) =>
      key === 'id' && typeof all.type === 'string' && /^[A-Z][A-Za-z]{0,63}$/.test(all.type) ? `${all.type}.id` : key,
    );
  });

  app.get('/healthcheck', async () => {
    await options.db.query('SELECT 1');
    return { ok: true, version: options.version, database: options.db.kind };
  });

  // Every FHIR call needs a signed-in caller; only the CapabilityStatement and the discovery
  // documents under the FHIR base (read by SMART apps before they have a token) are public.
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    const isPublic = path === '/fhir/R4/metadata' || path.startsWith('/fhir/R4/.well-known/');
    if ((path === '/fhir/R4' || path.startsWith('/fhir/')) && !isPublic && request.method !== 'OPTIONS') {
      if (request.method === 'GET' && request.routeOptions.config.callerCheckedByRead) {
        await authenticateForRead(options.auth, request);
      } else {
        await authenticate(options.auth, request);
      }
    } else if (path === '/fhir/R4/metadata' && request.headers.authorization) {
      // Public either way; with a valid token it also lists the caller's project's search parameters.
      await authenticate(options.auth, request).catch(() => undefined);
    }
  });

  addAttachmentUrlHooks(app, options.binary.signer, repository);
  await app.register(binaryRoutes, {
    repository,
    binary: options.binary,
    baseUrl: options.baseUrl,
    maxJsonBytes: options.maxBodyBytes,
    contextOf,
  });
  await app.register(botRoutes, { repository, runner: options.bots });

  await app.register(authRoutes, options.auth);
  await app.register(mfaRoutes, options.auth);
  await app.register(sessionContinuationRoutes, options.auth);
  await app.register(clientInfoRoutes, options.auth);
  await app.register(launchPatientRoutes, options.auth);
  await app.register(externalAuthRoutes, options.auth);
  await app.register(oauthRoutes, options.auth);
  await app.register(smartDiscoveryRoutes, options.auth);
  await app.register(tokenIntrospectionRoutes, options.auth);
  await app.register(loginPruningSweep, { db: options.db });

  await app.register(fhirRestRoutes, {
    repository,
    registry: options.registry,
    baseUrl: options.baseUrl,
    version: options.version,
    resourceBodyLimit: singleResourceBodyLimit,
    contextOf,
    readAs: (request, read) =>
      withCheckedCaller(options.auth, request, (caller, precondition) => read(caller.ctx, precondition)),
  });

  await app.register(conditionalAndScopedRoutes, {
    repository,
    registry: options.registry,
    baseUrl: options.baseUrl,
    version: options.version,
    resourceBodyLimit: singleResourceBodyLimit,
    contextOf,
  });

  await app.register(graphqlRoutes, { repository, registry: options.registry, baseUrl: options.baseUrl, contextOf });
  await app.register(terminologyRoutes, { repository, registry: options.registry, contextOf });
  await app.register(reindexRoutes, { repository, baseUrl: options.baseUrl, contextOf });
  await app.register(realtimeRoutes, {
    auth: options.auth,
    db: options.db,
    heartbeatMs: options.realtimeHeartbeatMs ?? defaultHeartbeatMs,
  });
  await app.register(fhircastRoutes, { auth: options.auth, db: options.db });
  await app.register(operationRoutes, { repository, baseUrl: options.baseUrl });
  await app.register(snapshotRoutes, { repository });
  await app.register(exportRoutes, {
    repository,
    storage: options.binary.storage,
    baseUrl: options.baseUrl,
    sharedProjectId: options.auth.sharedProjectId,
  });
  await app.register(emailRoutes, options.auth);
  await app.register(keyValueRoutes, options.auth);
  await app.register(adminRoutes, options.auth);

  const webRoot = options.webRoot;
  const hasWebApp = webRoot !== undefined && existsSync(join(webRoot, 'index.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: ['index.html'] });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi =
      apiPrefixes.some((prefix) => path.startsWith(prefix)) &&
      !isBrowserPageRequest(request.method, path, request.headers.accept);
    if (!isApi && hasWebApp && (request.method === 'GET' || request.method === 'HEAD')) {
      // Client-side routes: the web app decides what to show.
      return reply.type('text/html').sendFile('index.html');
    }
    return sendOutcome(reply, 404, 'not-found', 'Not found');
  });

  return app;
}

function checkRequestText(values: unknown, expressionOf: (key: string, all: Record<string, unknown>) => string): void {
  if (typeof values !== 'object' || values === null) return;
  const all = values as Record<string, unknown>;
  for (const [key, value] of Object.entries(all)) {
    checkStorableText(key, key);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') checkStorableText(item, expressionOf(key, all));
    }
  }
}

function sendOutcome(
  reply: import('fastify').FastifyReply,
  status: number,
  code: 'invalid' | 'not-found' | 'too-long' | 'not-supported',
  text: string,
) {
  return reply
    .code(status)
    .type('application/fhir+json')
    .send(outcomeOf([{ severity: 'error', code, details: { text } }]));
}
