import type { FastifyInstance } from 'fastify';
import type { Bot } from '@medplum/fhirtypes';
import { callerOf } from '../auth/authenticate';
import { allOk, errors } from '../fhir/fhirError';
import type { Repository, RepositorySession } from '../fhir/repository';
import { maxBotCodeBytes } from './botCode';
import { checkBotControl } from './botControl';
import { describeBotSyntaxError, findBotSyntaxError } from './botSyntax';

const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/** The `{ code, filename? }` body Medplum's app and CLI send; 400 naming the field otherwise. */
export function parseDeployBody(body: unknown): { code: string; filename?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid('Expected a JSON object { code, filename? }', 'code');
  }
  const { code, filename } = body as Record<string, unknown>;
  if (typeof code !== 'string' || code.trim() === '')
    throw errors.invalid("Missing code: the bot's JavaScript", 'code');
  if (Buffer.byteLength(code, 'utf8') > maxBotCodeBytes) {
    throw errors.invalid(`The bot's code is larger than ${maxBotCodeBytes} bytes`, 'code');
  }
  if (filename !== undefined && typeof filename !== 'string')
    throw errors.invalid('filename must be a string', 'filename');
  return { code, ...(filename ? { filename } : {}) };
}

/**
 * 400 naming `code` when the code does not parse as the sandbox will run it (botSyntax.ts), with
 * the engine's message, line and column: a syntax error otherwise showed only when the bot ran.
 */
export async function checkDeployableCode(code: string): Promise<void> {
  const syntaxError = await findBotSyntaxError(code);
  if (syntaxError) throw errors.invalid(describeBotSyntaxError(syntaxError), 'code');
}

/**
 * `POST Bot/{id}/$deploy` (Medplum's): the code becomes the Bot's `code` element, the form
 * `loadBotCode` runs; a previous `executableCode` is dropped so the deployed code is what runs.
 * Allowed exactly as an update of that Bot: project admins, or members whose policy lets them write it.
 * Code that does not parse is refused (400), once the caller is known to be allowed; nothing is stored.
 */
export async function botDeployRoute(app: FastifyInstance, options: { repository: Repository }): Promise<void> {
  app.post<{ Params: { id: string } }>('/fhir/R4/Bot/:id/$deploy', async (request, reply) => {
    const caller = callerOf(request);
    const ctx = caller.ctx;
    ctx.access?.checkScopes('Bot', 'update');
    const input = parseDeployBody(request.body);
    const { id } = request.params;
    const controlled = async (session: RepositorySession): Promise<Bot> => {
      if (!idPattern.test(id)) throw errors.notFound();
      const bot = (await session.read('Bot', id)) as Bot;
      await checkBotControl(caller, session, bot, 'deploy');
      return bot;
    };
    // Who may deploy first (a caller who may not learns nothing of the code), then the parse, out
    // of any transaction (it takes a worker thread), then the write, checked again.
    await options.repository.transaction(controlled, ctx.access);
    await checkDeployableCode(input.code);
    const saved = await options.repository.transaction(async (session) => {
      const bot = await controlled(session);
      const { executableCode: _replaced, ...rest } = bot;
      return (await session.update(ctx, { ...rest, code: input.code })).resource;
    }, ctx.access);
    void saved;
    return reply.code(200).type('application/fhir+json').send(allOk());
  });
}
