import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../../auth/authenticate';
import type { BinaryStorage } from '../../binary';
import { errors, outcomeOf } from '../../fhir/fhirError';
import type { Repository } from '../../fhir/repository';
import type { QueryParams } from '../../search/searchRequest';
import { instantParameter, queryValue, typeListParameter } from '../operationQuery';
import { ExportJobStore } from './exportJobStore';
import { runExport, type ExportScope } from './exportRunner';

export interface ExportRoutesOptions {
  repository: Repository;
  storage: BinaryStorage;
  baseUrl: string;
  sharedProjectId: string;
}

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
    const job = await store.create({
      projectId: caller.ctx.projectId,
      loginId: caller.login.id as string,
      requestUrl: new URL(request.url, options.baseUrl).toString(),
    });
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

  /** The job, if the caller may see it: the same login, or an admin of the job's project. */
  async function visibleJob(request: FastifyRequest<{ Params: { id: string } }>) {
    const caller = callerOf(request);
    const id = request.params.id;
    const job = idPattern.test(id) ? await store.get(id) : undefined;
    const allowed =
      job &&
      (caller.superAdmin ||
        (job.projectId === caller.ctx.projectId && (job.loginId === caller.login.id || caller.projectAdmin)));
    if (!job || !allowed) throw errors.notFoundWith('Export job not found');
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

  app.delete<{ Params: { id: string } }>('/fhir/R4/bulkdata/export/:id', async (request, reply) => {
    const job = await visibleJob(request);
    if (job.status === 'cancelled') throw errors.notFoundWith('Export job was cancelled');
    await store.cancel(job.id);
    running.get(job.id)?.controller.abort();
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
