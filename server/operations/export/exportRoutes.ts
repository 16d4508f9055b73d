import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../../auth/authenticate';
import type { BinaryStorage } from '../../binary';
import { errors, outcomeOf } from '../../fhir/fhirError';
import type { Repository } from '../../fhir/repository';
import type { QueryParams } from '../../search/searchRequest';
import { instantParameter, queryValue, typeListParameter } from '../operationQuery';
import { ExportJobStore, exportRetentionSeconds } from './exportJobStore';
import { startPeriodicSweep } from '../../periodicSweep';
import { collectExpiredExports } from './exportRetention';
import { exportFile, exportFolder, ndjsonContentType, runExport, type ExportScope } from './exportRunner';

export interface ExportRoutesOptions {
  repository: Repository;
  storage: BinaryStorage;
  baseUrl: string;
  sharedProjectId: string;
  /** How long a job and its files stay after their last change (`exportRetentionSeconds`). */
  retentionSeconds?: number;
}

/** How often a process looks for jobs past their retention (each kick-off looks too). */
const sweepIntervalMs = 60 * 60 * 1000;

/** The first sweep: a few minutes after start (periodicSweep.ts says why not an hour, nor at once). */
const firstSweepAfterMs = 2 * 60 * 1000;

const idPattern = /^[A-Za-z0-9\-.]{1,64}$/;
const outputFormats = new Set(['application/fhir+ndjson', 'application/ndjson', 'ndjson']);

/**
 * Bulk Data export (FHIR Bulk Data Access, async pattern): kick-off at `$export`, `Patient/$export`
 * and `Group/{id}/$export`; the status URL `bulkdata/export/{id}` answers 202 with X-Progress, then
 * the manifest; DELETE cancels. Jobs live in the database and run in this process after the kick-off.
 */
export async function exportRoutes(app: FastifyInstance, options: ExportRoutesOptions): Promise<void> {
  const { repository } = options;
  const fhirBase = `${options.baseUrl}fhir/R4/`;
  const store = new ExportJobStore(repository.db);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  const retentionSeconds = options.retentionSeconds ?? exportRetentionSeconds;
  const sweep = () =>
    collectExpiredExports(store, options.storage, retentionSeconds).catch((error: unknown) =>
      console.error('bulk export retention sweep failed:', error instanceof Error ? error.message : error),
    );
  startPeriodicSweep(app, (signal) => collectExpiredExports(store, options.storage, retentionSeconds, signal), {
    name: 'bulk export retention sweep',
    intervalMs: sweepIntervalMs,
    firstAfterMs: firstSweepAfterMs,
  });

  app.addHook('onClose', async () => {
    for (const job of running.values()) job.controller.abort();
    await Promise.all([...running.values()].map((job) => job.done));
  });

  async function kickOff(request: FastifyRequest, reply: FastifyReply, scope: ExportScope) {
    const caller = callerOf(request);
    const prefer = String(request.headers.prefer ?? '');
    if (!/(^|[,;\s])respond-async\b/i.test(prefer)) {
      throw errors.invalid('Bulk export needs the header "Prefer: respond-async"', 'Prefer');
    }
    const query = request.query as QueryParams;
    const format = queryValue(query, '_outputFormat');
    if (format !== undefined && !outputFormats.has(format)) {
      throw errors.invalid(`Unsupported _outputFormat "${format}" (only application/fhir+ndjson)`, '_outputFormat');
    }
    const types = typeListParameter(query, '_type');
    const since = instantParameter(query, '_since');
    if (scope.level === 'group') {
      if (!idPattern.test(scope.groupId)) throw errors.invalid(`Invalid id "${scope.groupId}"`, 'id');
      // The Group must exist and be readable now; its members are read when the job runs.
      await repository.transaction((session) => session.read('Group', scope.groupId), caller.ctx.access);
    }
    void sweep();
    const job = await store.create({
      projectId: caller.ctx.projectId,
      loginId: caller.login.id as string,
      requestUrl: new URL(request.url, options.baseUrl).toString(),
    });
    if (!job) {
      // Bulk Data's answer to too many concurrent exports.
      return reply
        .code(429)
        .header('Retry-After', '10')
        .type('application/fhir+json')
        .send(
          outcomeOf([
            {
              severity: 'error',
              code: 'throttled',
              details: {
                text: 'An export of yours (or too many of your project) is still running: wait for it, or cancel it, before starting another',
              },
            },
          ]),
        );
    }
    const controller = new AbortController();
    const done = runExport(
      { repository, storage: options.storage, store, fhirBase },
      { jobId: job.id, scope, types, since, ctx: caller.ctx, sharedProjectId: options.sharedProjectId },
      controller.signal,
    ).finally(() => running.delete(job.id));
    running.set(job.id, { controller, done });
    return reply
      .code(202)
      .header('Content-Location', `${fhirBase}bulkdata/export/${job.id}`)
      .type('application/fhir+json')
      .send(
        outcomeOf([
          { severity: 'information', code: 'informational', details: { text: `Export job ${job.id} accepted` } },
        ]),
      );
  }

  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/fhir/R4/$export',
      handler: (request, reply) => kickOff(request, reply, { level: 'system' }),
    });
    app.route({
      method,
      url: '/fhir/R4/Patient/$export',
      handler: (request, reply) => kickOff(request, reply, { level: 'patient' }),
    });
    app.route<{ Params: { id: string } }>({
      method,
      url: '/fhir/R4/Group/:id/$export',
      handler: (request, reply) => kickOff(request, reply, { level: 'group', groupId: request.params.id }),
    });
  }

  /**
   * The job, if the caller may see it (its files hold what the job's caller could read): the same
   * login, or an admin of the job's project, or a super admin — the last two with a token that
   * SMART scopes do not narrow: an app an admin launched with `user/Observation.read` may not
   * download someone's export of everything.
   */
  async function visibleJob(request: FastifyRequest<{ Params: { id: string } }>) {
    const caller = callerOf(request);
    const id = request.params.id;
    const job = idPattern.test(id) ? await store.get(id) : undefined;
    if (!job) throw errors.notFoundWith('Export job not found');
    const sameProject = job.projectId === caller.ctx.projectId;
    const own = sameProject && job.loginId === caller.login.id;
    const administers = !caller.ctx.access?.scoped && (caller.superAdmin || (sameProject && caller.projectAdmin));
    if (!own && !administers) throw errors.notFoundWith('Export job not found');
    return job;
  }

  app.get<{ Params: { id: string } }>('/fhir/R4/bulkdata/export/:id', async (request, reply) => {
    const job = await visibleJob(request);
    if (job.status === 'cancelled') throw errors.notFoundWith('Export job was cancelled');
    if (job.status === 'active' && job.stale) {
      // Nothing resumes a job whose process stopped; say so rather than answer 202 for ever.
      return reply
        .code(500)
        .type('application/fhir+json')
        .send(
          outcomeOf([
            {
              severity: 'error',
              code: 'incomplete',
              details: { text: 'Export interrupted: the server process running it stopped; start a new export' },
            },
          ]),
        );
    }
    if (job.status === 'active') {
      return reply
        .code(202)
        .header('X-Progress', job.progress ?? 'In progress')
        .header('Retry-After', '1')
        .send();
    }
    if (job.status === 'error') {
      return reply
        .code(500)
        .type('application/fhir+json')
        .send(
          outcomeOf([
            {
              severity: 'error',
              code: 'exception',
              details: { text: `Export failed: ${job.error ?? 'unknown error'}` },
            },
          ]),
        );
    }
    return reply
      .code(200)
      .type('application/json')
      .send({
        transactionTime: job.transactionTime,
        request: job.requestUrl,
        requiresAccessToken: true,
        output: job.output.map(({ type, url, count }) => ({ type, url, count })),
        error: [],
      });
  });

  // A file of the manifest: only for those who may see the job (its login, the project's admins),
  // like the manifest itself; never a Binary of the project (see exportFile).
  app.get<{ Params: { id: string; file: string } }>('/fhir/R4/bulkdata/export/:id/:file', async (request, reply) => {
    const job = await visibleJob(request);
    const type = /^([A-Z][A-Za-z]{0,63})\.ndjson$/.exec(request.params.file)?.[1];
    if (job.status !== 'completed' || !type || !job.output.some((output) => output.type === type)) {
      throw errors.notFoundWith('Export file not found');
    }
    const file = exportFile(job.id, type);
    const { stream, size } = await options.storage.open(file.folder, file.name);
    return reply
      .code(200)
      .type(ndjsonContentType)
      .header('Content-Length', String(size))
      .header('Content-Disposition', `attachment; filename="${type}.ndjson"`)
      .send(stream);
  });

  app.delete<{ Params: { id: string } }>('/fhir/R4/bulkdata/export/:id', async (request, reply) => {
    const job = await visibleJob(request);
    if (job.status === 'cancelled') throw errors.notFoundWith('Export job was cancelled');
    await store.cancel(job.id);
    const run = running.get(job.id);
    run?.controller.abort();
    // Once the run has stopped (it removes its files itself), a finished job's files go too.
    await run?.done;
    await options.storage.removeAll(exportFolder(job.id));
    return reply
      .code(202)
      .type('application/fhir+json')
      .send(
        outcomeOf([
          { severity: 'information', code: 'informational', details: { text: `Export job ${job.id} cancelled` } },
        ]),
      );
  });
}
