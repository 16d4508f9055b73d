import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Binary, Reference } from '@medplum/fhirtypes';
import { errors, FhirError } from '../fhir/fhirError';
import { checkResourceId, isResourceId } from '../fhir/resourceId';
import { checkJsonInput } from '../fhir/jsonInputCheck';
import type { Repository, RequestContext } from '../fhir/repository';
import { binaryFilename, storeStagedBinary, type BinaryDetails } from './binaryResource';
import { isSingleMediaType, mediaTypeEssence, servedContentType } from './contentTypes';
import { ContentTooLargeError, type BinaryStorage, type StagedContent } from './binaryStorage';
import type { UrlSigner } from './signedUrls';
import { drainRequest } from '../fhir/requestDrain';

/** What the Binary routes need; built once per server (serverRuntime). */
export interface BinaryEnvironment {
  storage: BinaryStorage;
  signer: UrlSigner;
  /** Largest accepted Binary content (BINARY_MAX_BYTES). */
  maxBytes: number;
}

export interface BinaryRoutesOptions {
  repository: Repository;
  binary: BinaryEnvironment;
  baseUrl: string;
  /** Largest FHIR JSON body (MAX_BODY_BYTES): a Binary sent as FHIR JSON is parsed in memory. */
  maxJsonBytes: number;
  contextOf(request: FastifyRequest): RequestContext;
}

/** Binary content larger than this is not put in a FHIR JSON answer (base64 in memory). */
export const maxInlineDataBytes = 16 * 1024 * 1024;

const fhirJson = 'application/fhir+json';
const referencePattern = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/;
const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/;

/** `?_filename=` and `X-Security-Context`, checked. */
function uploadDetails(request: FastifyRequest, contentType: string): BinaryDetails {
  const query = request.query as Record<string, unknown>;
  const filename = typeof query._filename === 'string' && query._filename !== '' ? query._filename : undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (filename && (filename.length > 255 || /[\u0000-\u001f/\\]/.test(filename))) {
    throw errors.invalid(
      'Invalid _filename: at most 255 characters, without slashes or control characters',
      '_filename',
    );
  }
  const header = request.headers['x-security-context'];
  const context = Array.isArray(header) ? header[0] : header;
  let securityContext: Reference | undefined;
  if (context) {
    if (!referencePattern.test(context)) {
      throw errors.invalid(`Invalid X-Security-Context "${context}": expected ResourceType/id`, 'X-Security-Context');
    }
    securityContext = { reference: context };
  }
  return { contentType, ...(filename ? { filename } : {}), ...(securityContext ? { securityContext } : {}) };
}

/**
 * Feeds the request into a stream the storage may destroy (on the size limit) without destroying
 * the socket, so that the 413 answer still reaches the client; a client that goes away fails it.
 */
function uploadStream(raw: IncomingMessage): PassThrough {
  const source = new PassThrough();
  raw.once('error', (error) => source.destroy(error));
  raw.once('close', () => {
    if (!raw.complete) source.destroy(new Error('The upload was aborted'));
  });
  raw.pipe(source);
  return source;
}

async function readText(stream: Readable, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new ContentTooLargeError(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A Binary sent as FHIR JSON: its base64 `data` becomes the content, the rest the resource. */
function parseFhirBinary(text: string, details: BinaryDetails): { details: BinaryDetails; content: Buffer } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw errors.invalid(`Invalid JSON: ${(error as Error).message}`);
  }
  checkJsonInput(parsed);
  const resource = parsed as Partial<Binary> | null;
  if (!resource || typeof resource !== 'object' || resource.resourceType !== 'Binary') {
    throw errors.invalid('Expected a Binary resource (resourceType "Binary")', 'Binary.resourceType');
  }
  if (typeof resource.contentType !== 'string' || resource.contentType === '') {
    throw errors.invalid('Missing contentType', 'Binary.contentType');
  }
  const data = typeof resource.data === 'string' ? resource.data.replace(/\s+/g, '') : '';
  if (resource.data !== undefined && (typeof resource.data !== 'string' || !base64Pattern.test(data))) {
    throw errors.invalid('Binary.data must be base64', 'Binary.data');
  }
  const securityContext = resource.securityContext ?? details.securityContext;
  if (securityContext && !referencePattern.test(securityContext.reference ?? '')) {
    throw errors.invalid('securityContext must reference ResourceType/id', 'Binary.securityContext');
  }
  if (!isSingleMediaType(resource.contentType)) {
    throw errors.invalid('contentType must be one media type, such as image/png', 'Binary.contentType');
  }
  return {
    details: {
      ...details,
      contentType: resource.contentType,
      ...(securityContext ? { securityContext } : {}),
      ...(resource.meta ? { meta: resource.meta } : {}),
    },
    content: Buffer.from(data, 'base64'),
  };
}

function jsonTooLarge(maxJsonBytes: number): FhirError {
  return errors.tooLarge(`The FHIR JSON Binary is larger than the limit of ${maxJsonBytes} bytes (MAX_BODY_BYTES)`);
}

function tooLarge(maxBytes: number): FhirError {
  return errors.tooLarge(`The Binary content is larger than the limit of ${maxBytes} bytes (BINARY_MAX_BYTES)`);
}

/** Inline for what a browser shows safely; every other type downloads. */
function disposition(inline: boolean, filename: string | undefined): string {
  const kind = inline ? 'inline' : 'attachment';
  if (!filename) return kind;
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Binary uploads and downloads under /fhir/R4/Binary, and signed content at /storage/{id}. Bodies
 * are streamed to disk (a content-type parser scoped to this plugin hands over the request stream),
 * never held whole in memory.
 */
export async function binaryRoutes(app: FastifyInstance, options: BinaryRoutesOptions): Promise<void> {
  const { repository, binary, baseUrl } = options;
  const { storage, signer, maxBytes } = binary;
  const fhirBase = `${baseUrl}fhir/R4/`;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  /** Stages the body (raw bytes, or the `data` of a FHIR JSON Binary); answers 413 past the limit. */
  async function stageUpload(request: FastifyRequest): Promise<{ details: BinaryDetails; staged: StagedContent }> {
    const contentType = request.headers['content-type'];
    if (!contentType) throw errors.invalid('Missing Content-Type: send the file with its own content type');
    let details = uploadDetails(request, contentType);
    const declared = Number(request.headers['content-length']);
    const raw = request.raw;
    if (mediaTypeEssence(contentType) === fhirJson) {
      if (declared > options.maxJsonBytes) throw jsonTooLarge(options.maxJsonBytes);
      const text = await readText(uploadStream(raw), options.maxJsonBytes);
      const parsed = parseFhirBinary(text, details);
      details = parsed.details;
      if (parsed.content.length > maxBytes) throw tooLarge(maxBytes);
      return { details, staged: await storage.stage(parsed.content, maxBytes) };
    }
    if (!isSingleMediaType(contentType)) {
      throw errors.invalid('Content-Type must be one media type, such as image/png', 'Binary.contentType');
    }
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
    return { details, staged: await storage.stage(uploadStream(raw), maxBytes) };
  }

  async function upload(request: FastifyRequest, reply: FastifyReply, id?: string) {
    if (id !== undefined) checkResourceId(id, 'Binary.id');
    const ctx = options.contextOf(request);
    // Refused before the upload is read: no point storing what the caller may not write.
    ctx.access?.checkInteraction('Binary', id === undefined ? 'create' : 'update');
    let prepared: { details: BinaryDetails; staged: StagedContent };
    try {
      prepared = await stageUpload(request);
    } catch (error) {
      if (error instanceof FhirError && error.status === 413) {
        // Refused on its declared length, before reading: answer now and close the connection
        // rather than read a body we will not keep.
        reply.header('connection', 'close');
      }
      if (!(error instanceof ContentTooLargeError)) throw error;
      // Refused part-way: the client is still sending; read off the rest so it sees the answer.
      request.raw.unpipe();
      await drainRequest(request.raw);
      reply.header('connection', 'close');
      throw error.maxBytes === maxBytes ? tooLarge(maxBytes) : jsonTooLarge(error.maxBytes);
    }
    const { staged } = prepared;
    const details = { ...prepared.details, ...(id ? { id } : {}) };
    let written: Binary | undefined;
    try {
      const result = await repository.transaction(async (session) => {
        // The Binary follows the access rules of its security context: the caller must be able to read it.
        const [type, contextId] = details.securityContext?.reference?.split('/') ?? [];
        if (type && contextId) await session.read(type, contextId);
        const stored = await storeStagedBinary(storage, session, ctx, details, staged);
        written = stored.binary;
        return stored;
      }, ctx.access);
      const resource = result.binary;
      reply.code(result.created ? 201 : 200).type(fhirJson);
      reply.header('ETag', `W/"${resource.meta?.versionId}"`);
      if (result.created)
        reply.header('Location', `${fhirBase}Binary/${resource.id}/_history/${resource.meta?.versionId}`);
      return reply.send(resource);
    } catch (error) {
      await storage.discard(staged);
      if (written?.id && written.meta?.versionId) await storage.removeVersion(written.id, written.meta.versionId);
      throw error;
    }
  }

  app.post('/fhir/R4/Binary', { bodyLimit: Number.MAX_SAFE_INTEGER }, (request, reply) => upload(request, reply));

  app.put<{ Params: { id: string } }>('/fhir/R4/Binary/:id', { bodyLimit: Number.MAX_SAFE_INTEGER }, (request, reply) =>
    upload(request, reply, request.params.id),
  );

  /** Sends a Binary version's bytes with its type; the caller has already been allowed to read it. */
  async function sendContent(reply: FastifyReply, resource: Binary) {
    const { stream, size } = await storage.open(resource.id as string, resource.meta?.versionId as string);
    const served = servedContentType(resource.contentType);
    return (
      reply
        .code(200)
        .header('Content-Type', served.contentType)
        .header('Content-Length', String(size))
        .header('Content-Disposition', disposition(served.inline, binaryFilename(resource)))
        // Uploaded HTML or SVG must never run as this origin's page.
        .header('Content-Security-Policy', "sandbox; default-src 'none'")
        .header('X-Content-Type-Options', 'nosniff')
        .send(stream)
    );
  }

  /** A version as asked for: its bytes, or with `Accept: application/fhir+json` the resource with base64 `data`. */
  async function sendVersion(request: FastifyRequest, reply: FastifyReply, resource: Binary) {
    const id = resource.id as string;
    const versionId = resource.meta?.versionId as string;
    reply.header('ETag', `W/"${versionId}"`);
    const accept = request.headers.accept ?? '';
    if (!accept.includes(fhirJson)) return sendContent(reply, resource);
    const size = await storage.size(id, versionId);
    if (size !== undefined && size > maxInlineDataBytes) {
      throw errors.notSupported(
        `Binary/${id} is ${size} bytes, more than ${maxInlineDataBytes} bytes can be sent as FHIR JSON; ask for its content (Accept: ${resource.contentType} or */*)`,
        406,
      );
    }
    const data = size === undefined ? undefined : await storage.readAll(id, versionId);
    return reply.type(fhirJson).send({ ...resource, ...(data ? { data: data.toString('base64') } : {}) });
  }

  app.get<{ Params: { id: string } }>('/fhir/R4/Binary/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isResourceId(id)) throw errors.notFound();
    const ctx = options.contextOf(request);
    const resource = (await repository.transaction((session) => session.read('Binary', id), ctx.access)) as Binary;
    return sendVersion(request, reply, resource);
  });

  app.get<{ Params: { id: string; vid: string } }>('/fhir/R4/Binary/:id/_history/:vid', async (request, reply) => {
    const { id, vid } = request.params;
    if (!isResourceId(id) || !isResourceId(vid)) throw errors.notFound();
    const ctx = options.contextOf(request);
    const resource = (await repository.transaction(
      (session) => session.readVersion('Binary', id, vid),
      ctx.access,
    )) as Binary;
    return sendVersion(request, reply, resource);
  });

  // Signed URLs (see signedUrls.ts) work without a bearer token: the signature is the permission,
  // for the one version it names.
  app.get<{ Params: { id: string; vid: string } }>('/storage/:id/:vid', async (request, reply) => {
    const { id, vid } = request.params;
    const query = request.query as Record<string, unknown>;
    const check = signer.check(id, vid, query.Expires, query.Signature);
    if (check === 'expired')
      throw errors.forbidden('This link has expired; open the attachment again to get a new one');
    if (check !== 'valid') throw errors.forbidden('Invalid signature');
    const resource = (await repository.transaction(async (session) => {
      // A deleted Binary is gone for its links too (410), though its old versions are kept.
      await session.read('Binary', id);
      return session.readVersion('Binary', id, vid);
    })) as Binary;
    reply.header('Cache-Control', 'private, max-age=300');
    return sendContent(reply, resource);
  });

  // Links of the earlier form named no version and served whatever the Binary held when opened.
  app.get('/storage/:id', async () => {
    throw errors.forbidden('Invalid signature');
  });
}
