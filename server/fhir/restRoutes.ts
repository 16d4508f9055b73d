import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { QueryParams } from '../search/searchRequest';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { processBundle } from './bundleProcessor';
import { forwardedGetOf } from './forwardedGet';
import { buildCapabilityStatement } from './capabilityStatement';
import { errors } from './fhirError';
import { refuseUnsupportedFormats } from './formatNegotiation';
import { withoutProtectedFields } from './protectedFields';
import { readProjectionOf } from './readProjection';
import {
  bundleForPreference,
  returnPreferenceOf,
  writeOutcome,
  type ReturnPreference,
  type WriteInteraction,
} from './preferReturn';
import { checkResourceLimits } from '../validation/resourceLimits';
import {
  createOperation,
  deleteOperation,
  historyOperation,
  patchOperation,
  queryFromString,
  readOperation,
  searchOperation,
  updateOperation,
  vreadOperation,
  type OperationEnvironment,
  type OperationResult,
} from './fhirOperations';
import type { Repository, RequestContext } from './repository';
import type { ReadPrecondition } from './readPrecondition';

export interface FhirRoutesOptions {
  repository: Repository;
  registry: SearchParameterRegistry;
  baseUrl: string;
  version: string;
  /**
   * Body limit of the routes whose body is one resource (create, update, patch), below the server's
   * MAX_BODY_BYTES (validation/resourceLimits.ts, resourceBodyLimit); the server's when unset.
   */
  resourceBodyLimit?: number;
  /** Who the request acts as; the auth plugin will supply it from the access token. */
  contextOf(request: FastifyRequest): RequestContext;
  /**
   * Runs a read by id as the request's caller, whose check may ride on the read's own statement
   * as its precondition (auth/authenticate.ts, withCheckedCaller); without it, as `contextOf`.
   */
  readAs?<T>(
    request: FastifyRequest,
    read: (ctx: RequestContext, precondition?: ReadPrecondition) => Promise<T>,
  ): Promise<T>;
}

type TypeParams = { type: string };
type InstanceParams = { type: string; id: string };
type VersionParams = { type: string; id: string; vid: string };

/** The FHIR R4 REST core under /fhir/R4 (a Fastify plugin). */
export async function fhirRestRoutes(app: FastifyInstance, options: FhirRoutesOptions): Promise<void> {
  const fhirBase = `${options.baseUrl}fhir/R4/`;
  const { repository, registry } = options;
  const oneResource = options.resourceBodyLimit === undefined ? {} : { bodyLimit: options.resourceBodyLimit };
  // Per registry (base, and projects with SearchParameters of their own), most recently used last.
  // Kept as JSON text: the statement is ~400 KB, and serialising it (and walking it for Attachment
  // URLs, which it never holds) on every call cost 8–16 ms — SMART apps and clients ask on start.
  const capabilities = new Map<SearchParameterRegistry, { version: number; json: string }>();
  // XML and other formats are refused with 406 before any work (formatNegotiation.ts).
  refuseUnsupportedFormats(app);

  const run = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operation: (env: OperationEnvironment) => Promise<OperationResult>,
    write?: WriteInteraction,
  ) => {
    const ctx = options.contextOf(request);
    const result = await repository.transaction(
      (session) => operation({ session, ctx, registry: session.registry, fhirBase }),
      ctx.access,
    );
    return send(reply, result, fhirBase, write && preferredAnswer(request, write));
  };

  // Reads of one resource need no transaction: a single SELECT (repository.readOnly), which also
  // carries the check of a cached caller.
  const runRead = async (
    request: FastifyRequest,
    reply: FastifyReply,
    operation: (env: OperationEnvironment) => Promise<OperationResult>,
  ) => {
    const readAs: NonNullable<FhirRoutesOptions['readAs']> =
      options.readAs ?? ((r, read) => read(options.contextOf(r)));
    const result = await readAs(request, (ctx, precondition) =>
      repository.readOnly(
        (session) => operation({ session, ctx, registry: session.registry, fhirBase }),
        ctx.access,
        precondition,
      ),
    );
    return send(reply, result, fhirBase);
  };

  app.get('/fhir/R4/metadata', async (request, reply) => {
    // Public; a signed-in caller also sees the search parameters of its own project.
    const parameters = request.caller ? registry.forProject(request.caller.ctx.projectId) : registry.baseRegistry();
    let entry = capabilities.get(parameters);
    if (entry?.version !== parameters.version) {
      const statement = buildCapabilityStatement(parameters, options.baseUrl, options.version);
      entry = { version: parameters.version, json: JSON.stringify(statement) };
    }
    capabilities.delete(parameters);
    capabilities.set(parameters, entry);
    if (capabilities.size > 16) capabilities.delete(capabilities.keys().next().value as SearchParameterRegistry);
    return reply.type('application/fhir+json').send(entry.json);
  });

  app.get('/fhir/R4/_history', (request, reply) =>
    run(request, reply, (env) => historyOperation(env, request.query as QueryParams)),
  );

  app.post('/fhir/R4', async (request, reply) => {
    const bundle = await processBundle(
      { repository, registry, ctx: options.contextOf(request), fhirBase, forwardGet: forwardedGetOf(app, request) },
      request.body,
    );
    // Prefer: return=minimal spares serialising a whole import back to the importer
    // (server/import/importRunner.ts asks for it); processBundle checked that entry is a list.
    const requests = (request.body as Bundle).entry ?? [];
    const answer = bundleForPreference(bundle, requests, returnPreferenceOf(header(request, 'prefer')));
    return reply.type('application/fhir+json').send(withoutProtectedFields(answer));
  });

  app.get<{ Params: TypeParams }>('/fhir/R4/:type', (request, reply) =>
    run(request, reply, (env) => searchOperation(env, request.params.type, request.query as QueryParams)),
  );

  app.post<{ Params: TypeParams }>('/fhir/R4/:type/_search', (request, reply) => {
    // Parameters may come in the form body, the query string, or both.
    const body = typeof request.body === 'string' ? queryFromString(request.body) : {};
    const query = { ...(request.query as QueryParams), ...body };
    return run(request, reply, (env) => searchOperation(env, request.params.type, query));
  });

  app.post<{ Params: TypeParams }>('/fhir/R4/:type', oneResource, (request, reply) => {
    // Before the transaction: a resource past the size limits holds nothing (413).
    checkResourceLimits(request.body);
    return run(
      request,
      reply,
      (env) => createOperation(env, request.params.type, request.body, header(request, 'if-none-exist')),
      'create',
    );
  });

  app.get<{ Params: TypeParams }>('/fhir/R4/:type/_history', (request, reply) =>
    run(request, reply, (env) => historyOperation(env, request.query as QueryParams, request.params.type)),
  );

  app.get<{ Params: InstanceParams }>(
    '/fhir/R4/:type/:id',
    { config: { callerCheckedByRead: true } },
    (request, reply) => {
      // Only a URL with a query string can ask for a shaped answer: the plain read (benchmarked
      // against raw SQL, issue 20) looks no further than this.
      if (request.url.includes('?')) {
        const projection = readProjectionOf(request.params.type, request.query as QueryParams, registry);
        if (projection) {
          return runRead(request, reply, (env) =>
            readOperation(env, request.params.type, request.params.id, { projection }),
          );
        }
      }
      return runRead(request, reply, (env) =>
        readOperation(env, request.params.type, request.params.id, { storedJson: true }),
      );
    },
  );

  app.put<{ Params: InstanceParams }>('/fhir/R4/:type/:id', oneResource, (request, reply) => {
    checkResourceLimits(request.body);
    return run(
      request,
      reply,
      (env) => updateOperation(env, request.params.type, request.params.id, request.body, header(request, 'if-match')),
      'update',
    );
  });

  // The patched resource is checked against the limits when it is validated.
  app.patch<{ Params: InstanceParams }>('/fhir/R4/:type/:id', oneResource, (request, reply) =>
    run(
      request,
      reply,
      (env) => patchOperation(env, request.params.type, request.params.id, request.body, header(request, 'if-match')),
      'patch',
    ),
  );

  app.delete<{ Params: InstanceParams }>('/fhir/R4/:type/:id', (request, reply) =>
    run(request, reply, (env) => deleteOperation(env, request.params.type, request.params.id)),
  );

  app.get<{ Params: InstanceParams }>('/fhir/R4/:type/:id/_history', (request, reply) =>
    run(request, reply, (env) =>
      historyOperation(env, request.query as QueryParams, request.params.type, request.params.id),
    ),
  );

  app.get<{ Params: VersionParams }>('/fhir/R4/:type/:id/_history/:vid', (request, reply) => {
    const { type, id, vid } = request.params;
    const projection = request.url.includes('?')
      ? readProjectionOf(type, request.query as QueryParams, registry)
      : undefined;
    return run(request, reply, (env) => vreadOperation(env, type, id, vid, projection));
  });
}

export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What a write's answer should be (its `Prefer: return=…`) and which write it was. */
export interface PreferredAnswer {
  preference: ReturnPreference;
  interaction: WriteInteraction;
}

export function preferredAnswer(request: FastifyRequest, interaction: WriteInteraction): PreferredAnswer {
  return { preference: returnPreferenceOf(header(request, 'prefer')), interaction };
}

/**
 * Sends an interaction's result: status, ETag / Last-Modified / Location headers and the body — for a
 * write, the body its `Prefer: return=…` asks for (none, an OperationOutcome, or the resource).
 */
export function send(
  reply: FastifyReply,
  result: OperationResult,
  fhirBase: string,
  preferred?: PreferredAnswer,
): FastifyReply {
  reply.code(result.status).type('application/fhir+json');
  if (result.stored) {
    // Already what the caller may see (RepositorySession.readForAnswer): sent as stored.
    reply.header('ETag', `W/"${result.stored.versionId}"`);
    reply.header('Last-Modified', new Date(result.stored.lastModified).toUTCString());
    return reply.send(result.stored.json);
  }
  const resource: Resource | undefined = result.resource;
  if (resource?.meta?.versionId && resource.resourceType !== 'Bundle') {
    reply.header('ETag', `W/"${resource.meta.versionId}"`);
    if (resource.meta.lastUpdated) reply.header('Last-Modified', new Date(resource.meta.lastUpdated).toUTCString());
  }
  if (result.location && result.status === 201) reply.header('Location', `${fhirBase}${result.location}`);
  if (preferred?.preference === 'minimal') return reply.removeHeader('content-type').send();
  if (preferred?.preference === 'OperationOutcome') return reply.send(writeOutcome(preferred.interaction, result));
  const body = resource ? withoutProtectedFields(resource) : result.outcome;
  if (!body) throw errors.invalid('Empty result');
  return reply.send(body);
}
