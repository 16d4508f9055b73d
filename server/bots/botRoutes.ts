import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Bot } from '@medplum/fhirtypes';
import { callerOf } from '../auth/authenticate';
import { allOk, errors, FhirError, outcomeOf } from '../fhir/fhirError';
import type { Repository, RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { botDeployRoute } from './botDeploy';
import { checkBotControl } from './botControl';
import type { BotRunner, BotRunResult } from './botRunner';

export interface BotRoutesOptions {
  repository: Repository;
  runner: BotRunner;
}

const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;
const maxDiagnostics = 4000;

/** A failed run as an OperationOutcome: the bot's own message, its log as diagnostics. */
export function botFailure(result: Extract<BotRunResult, { ok: false }>): FhirError {
  const status = result.failure === 'timeout' ? 408 : result.failure === 'memory' ? 500 : 400;
  const code = result.failure === 'timeout' ? 'timeout' : result.failure === 'memory' ? 'exception' : 'processing';
  const log = result.logs.join('\n');
  return new FhirError(
    status,
    outcomeOf([
      {
        severity: 'error',
        code,
        details: { text: result.failure === 'error' ? `Bot error: ${result.message}` : result.message },
        ...(log ? { diagnostics: log.length > maxDiagnostics ? `${log.slice(0, maxDiagnostics)}…` : log } : {}),
      },
    ]),
  );
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** `POST Bot/{id}/$execute` and `POST Bot/$execute?identifier=system|value` (Medplum's paths). */
export async function botRoutes(app: FastifyInstance, options: BotRoutesOptions): Promise<void> {
  const { repository, runner } = options;

  // JSON bodies arrive parsed (the server's parsers); any other content type reaches the bot as text.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  async function execute(
    request: FastifyRequest,
    reply: FastifyReply,
    find: (session: RepositorySession) => Promise<Bot>,
  ) {
    const caller = callerOf(request);
    const ctx = caller.ctx;
    // A bot acts with its own rights: a token narrowed by SMART scopes needs a scope that writes Bots.
    ctx.access?.checkScopes('Bot', 'update');
    const bot = await repository.transaction(async (session) => {
      const found = await find(session);
      await checkBotControl(caller, session, found, 'execute');
      return found;
    }, ctx.access);
    const contentType = mediaType(request.headers['content-type']) || 'application/json';
    const result = await runner.run({ bot, input: request.body, contentType, requester: caller.profile });
    if (!result.ok) throw botFailure(result);
    const value = result.value;
    if (value.kind === 'none') return reply.code(200).type('application/fhir+json').send(allOk());
    if (value.kind === 'text') return reply.code(200).type('text/plain; charset=utf-8').send(value.text);
    if (value.kind === 'bytes') return reply.code(200).type('application/octet-stream').send(value.bytes);
    const isResource = typeof value.value === 'object' && value.value !== null && 'resourceType' in value.value;
    // JSON.stringify here: a bot may return a bare string-free value (a number, null) Fastify would not serialize.
    return reply
      .code(200)
      .type(isResource ? 'application/fhir+json' : 'application/json')
      .send(isResource ? value.value : JSON.stringify(value.value));
  }

  await botDeployRoute(app, { repository });

  app.post<{ Params: { id: string } }>('/fhir/R4/Bot/:id/$execute', (request, reply) =>
    execute(request, reply, async (session) => {
      if (!idPattern.test(request.params.id)) throw errors.notFound();
      return (await session.read('Bot', request.params.id)) as Bot;
    }),
  );

  app.post('/fhir/R4/Bot/$execute', (request, reply) =>
    execute(request, reply, async (session) => {
      const identifier = (request.query as Record<string, unknown>).identifier;
      if (typeof identifier !== 'string' || !identifier.includes('|')) {
        throw errors.invalid('Missing identifier: expected ?identifier=system|value', 'identifier');
      }
      const found = await session.search(parseSearchRequest('Bot', { identifier, _count: '2' }, session.registry));
      if (found.resources.length === 0) throw errors.notFoundWith(`No Bot with identifier ${identifier}`);
      if (found.resources.length > 1)
        throw errors.invalid(`More than one Bot has identifier ${identifier}`, 'identifier');
      return found.resources[0] as Bot;
    }),
  );
}
