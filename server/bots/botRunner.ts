import { randomUUID } from 'node:crypto';
import type { AuditEvent, Bot, Login, Project, ProjectMembership, ProjectSetting, Reference } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import type { AuthEnvironment } from '../auth/authEnvironment';
import { readReference } from '../auth/accountStore';
import { grantTokens, revokeLogin } from '../auth/loginService';
import type { BinaryStorage } from '../binary';
import { systemAuthor } from '../definitions/loadDefinitions';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { loadBotCode } from './botCode';
import { botFetch } from './botFetch';
import { recordsRun } from './botRunRecord';
import { runInSandbox, type BotValue, type BotFailure } from './botSandbox';
import { RunLimiter } from './runLimiter';

export interface BotRunnerOptions {
  auth: AuthEnvironment;
  storage: BinaryStorage;
  baseUrl: string;
  timeoutMs: number;
  /** Memory limit of a bot's engine (its WebAssembly memory), in MB. */
  memoryMb?: number;
  /** `host:port` entries a bot's fetch may reach although internal (BOT_FETCH_ALLOWED_HOSTS). */
  fetchAllowedHosts?: readonly string[];
  /** How many bots may run at once (each has a worker and a heap); further runs wait their turn. */
  concurrency?: number;
}

/** What a bot is run with. */
export interface BotInvocation {
  bot: Bot;
  input: unknown;
  contentType: string;
  /** Who asked: a profile for `$execute`, the Subscription for a trigger (recorded in the AuditEvent). */
  requester: Reference;
  /** Resources the run is about (the triggering Subscription and resource), for the AuditEvent. */
  about?: Reference[];
}

export type BotRunResult =
  { ok: true; value: BotValue; logs: string[] } | { ok: false; failure: BotFailure; message: string; logs: string[] };

/** The `medplum` client methods a bot may call (our FhirClient, over HTTP, as the bot). */
const clientMethods = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'search',
  'searchOne',
  'searchResources',
  'createResource',
  'createResourceIfNoneExist',
  'readResource',
  'readReference',
  'readHistory',
  'readVersion',
  'updateResource',
  'patchResource',
  'deleteResource',
  'executeBatch',
  'valueSetExpand',
  'validateResource',
  'readPatientEverything',
  'executeBot',
  'sendEmail',
  'createAttachment',
  'createBinary',
  'createComment',
]);

export const defaultBotMemoryMb = 128;
export const defaultBotConcurrency = 4;
/** AuditEvent outcomeDesc is capped: logs of a chatty bot are cut, not stored whole. */
const maxOutcomeText = 10_000;

/** A bot's `timeout` (seconds) may shorten the server's limit (BOT_TIMEOUT_MS), never lengthen it. */
export function botTimeoutMs(bot: Bot, serverLimitMs: number): number {
  const own = typeof bot.timeout === 'number' && bot.timeout > 0 ? bot.timeout * 1000 : Number.POSITIVE_INFINITY;
  return Math.min(own, serverLimitMs);
}

/** The bot's membership secrets over the project's, by name (Medplum's `event.secrets`). */
export function botSecrets(
  project: Project | undefined,
  membership: ProjectMembership,
): Record<string, ProjectSetting> {
  const secrets: Record<string, ProjectSetting> = {};
  const own = (membership as ProjectMembership & { secret?: ProjectSetting[] }).secret ?? [];
  for (const setting of [...(project?.secret ?? []), ...own]) {
    if (setting.name) secrets[setting.name] = setting;
  }
  return secrets;
}

/**
 * Runs bots: finds (or makes) the bot's project membership, signs a token for it, runs the code in
 * the sandbox with a FhirClient that calls this server over HTTP as the bot (so the bot's access
 * policy is enforced like anyone's), then ends the token and records an AuditEvent (as the Bot's
 * `auditEventTrigger` says: every run unless it narrows that, see botRunRecord.ts).
 */
export class BotRunner {
  private readonly fhirBase: string;
  readonly memoryMb: number;
  private readonly limiter: RunLimiter;

  constructor(private readonly options: BotRunnerOptions) {
    this.fhirBase = `${options.baseUrl}fhir/R4/`;
    this.memoryMb = options.memoryMb ?? defaultBotMemoryMb;
    this.limiter = new RunLimiter(options.concurrency ?? defaultBotConcurrency);
  }

  /** The bot's membership in its project; made (with the project's default access) on its first run. */
  private async membershipOf(session: RepositorySession, bot: Bot, projectId: string): Promise<ProjectMembership> {
    const found = await session.search(
      parseSearchRequest('ProjectMembership', { profile: `Bot/${bot.id}`, _count: '2' }, session.registry),
    );
    const existing = (found.resources as ProjectMembership[]).find(
      (membership) => membership.project?.reference === `Project/${projectId}`,
    );
    if (existing) return existing;
    const created = await session.create(
      { projectId, author: systemAuthor },
      {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${projectId}` },
        user: { reference: `Bot/${bot.id}`, display: bot.name },
        profile: { reference: `Bot/${bot.id}`, display: bot.name },
      } as ProjectMembership,
      { trusted: true },
    );
    return created as ProjectMembership;
  }

  /** Everything a run needs from the database, in one short transaction (nothing is held while the bot runs). */
  private async prepare(invocation: BotInvocation) {
    const { auth, storage } = this.options;
    const bot = invocation.bot;
    const projectId = bot.meta?.project as string;
    return auth.repository.transaction(async (session) => {
      const code = await loadBotCode(session, storage, this.fhirBase, bot);
      const membership = await this.membershipOf(session, bot, projectId);
      if (membership.active === false) throw new Error(`Bot/${bot.id}'s membership is not active`);
      const project = await readReference<Project>(session, { reference: `Project/${projectId}` });
      const login = (await session.create(
        { projectId, author: systemAuthor },
        {
          resourceType: 'Login',
          user: { reference: `Bot/${bot.id}` },
          authMethod: 'client',
          authTime: new Date().toISOString(),
          scope: 'profile',
          granted: false,
          revoked: false,
          membership: { reference: `ProjectMembership/${membership.id}` },
          project: { reference: `Project/${projectId}` },
        } as Login,
        { trusted: true },
      )) as Login;
      const tokens = await grantTokens(auth, session, login);
      return { code, membership, project, login, accessToken: tokens.access_token };
    });
  }

  /** Runs the bot; failures of the bot's code are a result, failures to start it throw. */
  async run(invocation: BotInvocation): Promise<BotRunResult> {
    const { bot } = invocation;
    const prepared = await this.prepare(invocation);
    const traceId = randomUUID();
    const client = new FhirClient({ baseUrl: this.options.baseUrl, cacheTime: 0, autoBatchTime: 0 });
    client.setAccessToken(prepared.accessToken);
    // Requests the bot started end with its run.
    const fetches = new AbortController();
    let result: BotRunResult;
    try {
      result = await this.limiter.run(() =>
        runInSandbox({
          code: prepared.code,
          event: {
            bot: { reference: `Bot/${bot.id}`, display: bot.name },
            input: invocation.input,
            contentType: invocation.contentType,
            secrets: botSecrets(prepared.project, prepared.membership),
            traceId,
            // Medplum's event.requester: the profile that asked ($execute); a Subscription is not a requester.
            ...(invocation.requester.reference?.startsWith('Subscription/') ? {} : { requester: invocation.requester }),
          },
          timeoutMs: botTimeoutMs(bot, this.options.timeoutMs),
          memoryMb: this.memoryMb,
          onCall: (method, args) => {
            if (method === 'getAccessToken') return Promise.resolve(client.getAccessToken());
            if (method === 'getBaseUrl') return Promise.resolve(client.getBaseUrl());
            if (!clientMethods.has(method)) {
              return Promise.reject(new Error(`medplum.${method} is not available to bots`));
            }
            const fn = (client as unknown as Record<string, (...values: unknown[]) => Promise<unknown>>)[method];
            return fn.apply(client, args);
          },
          onFetch: (request) =>
            botFetch(request, { allowedHosts: this.options.fetchAllowedHosts ?? [], signal: fetches.signal }),
        }),
      );
    } finally {
      fetches.abort();
      // The token lives exactly as long as the run.
      await this.options.auth.repository
        .transaction((session) => revokeLogin(session, prepared.login.id as string))
        .catch((error: unknown) => console.error('could not end a bot login', error));
    }
    if (recordsRun(bot.auditEventTrigger, result)) {
      await this.audit(invocation, result, traceId).catch((error: unknown) =>
        console.error('could not record a bot run', error),
      );
    }
    return result;
  }

  /** Records a run that could not start (no code, no membership) like a failed run. */
  recordStartFailure(invocation: BotInvocation, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    const result: BotRunResult = { ok: false, failure: 'error', message, logs: [] };
    if (!recordsRun(invocation.bot.auditEventTrigger, result)) return Promise.resolve();
    return this.audit(invocation, result, randomUUID());
  }

  /** One AuditEvent per run, in the bot's project: outcome, and the bot's log or its error. */
  private async audit(invocation: BotInvocation, result: BotRunResult, traceId: string): Promise<void> {
    const { bot } = invocation;
    const lines = result.ok ? result.logs : [...result.logs, `${result.failure}: ${result.message}`];
    let text = lines.join('\n');
    if (text.length > maxOutcomeText) text = `${text.slice(0, maxOutcomeText)}\n… (cut)`;
    const event: AuditEvent = {
      resourceType: 'AuditEvent',
      type: {
        system: 'http://terminology.hl7.org/CodeSystem/audit-event-type',
        code: 'rest',
        display: 'RESTful Operation',
      },
      subtype: [{ system: 'http://hl7.org/fhir/restful-interaction', code: 'operation', display: 'operation' }],
      action: 'E',
      recorded: new Date().toISOString(),
      outcome: result.ok ? '0' : result.failure === 'error' ? '4' : '8',
      ...(text ? { outcomeDesc: text } : {}),
      agent: [{ who: invocation.requester as AuditEventWho, requestor: true }],
      // Medplum records the bot as the observer, which R4's type list does not name: written trusted.
      source: { observer: { reference: `Bot/${bot.id}`, display: bot.name } as AuditEvent['source']['observer'] },
      entity: [{ what: { reference: `Bot/${bot.id}` } }, ...(invocation.about ?? []).map((what) => ({ what }))],
      extension: [{ url: 'https://hearth-emr.org/fhir/StructureDefinition/trace-id', valueString: traceId }],
    };
    await this.options.auth.repository.transaction((session) =>
      session.create({ projectId: bot.meta?.project as string, author: botRunAuthor }, event, { trusted: true }),
    );
  }
}

type AuditEventWho = NonNullable<AuditEvent['agent'][number]['who']>;

/** The author of run records: writes by it never trigger bots (a bot on AuditEvents would loop). */
export const botRunAuthor: Reference = { reference: 'Device/bot-runner', display: 'Bot runner' };
