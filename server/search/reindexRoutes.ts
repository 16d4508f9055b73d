import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Parameters } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { Repository, RequestContext } from '../fhir/repository';
import { liftStatementTimeout } from '../storage/liftStatementTimeout';
import { isKnownResourceType } from '../validation/fhirJsonSchema';
import { startReindexJob } from './reindexJob';
import { searchParameterIndexStatus } from './indexingJobs';

export interface ReindexRoutesOptions {
  repository: Repository;
  baseUrl: string;
  contextOf(request: FastifyRequest): RequestContext;
}

/**
 * `POST /fhir/R4/$reindex`: back-fills index rows after a SearchParameter is added or changed.
 * Answers 202 with Content-Location naming an AsyncJob to poll. Super admins only.
 *
 * `GET /fhir/R4/SearchParameter/{id}/$index-status`: how far the indexing of the project's existing
 * resources for a SearchParameter it saved has come (searchParameterIndexing.ts), for whoever may
 * read the SearchParameter: a Parameters resource with `status` (queued, indexing, completed,
 * error or none) and the AsyncJob's `job`, `resourceType` and `count`; Content-Location names the
 * AsyncJob.
 */
export async function reindexRoutes(app: FastifyInstance, options: ReindexRoutesOptions): Promise<void> {
  app.post('/fhir/R4/$reindex', async (request, reply) => {
    if (!options.contextOf(request).access?.superAdmin) {
      throw errors.forbidden('Forbidden: $reindex is for super administrators');
    }
    const query = request.query as Record<string, string | undefined>;
    const fromBody = (request.body as Parameters | undefined)?.parameter?.find(
      (p) => p.name === 'resourceType',
    )?.valueString;
    const requested = (query.resourceType ?? fromBody ?? '')
      .split(',')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
    for (const type of requested) {
      if (!isKnownResourceType(type)) throw errors.invalid(`Unknown resource type "${type}"`, 'resourceType');
    }
    const types =
      requested.length > 0
        ? requested
        : (
            await options.repository.db.transaction(async (tx) => {
              // One scan of every resource: long at 1M resources on a cold cache (a super admin's call only).
              await liftStatementTimeout(tx);
              return tx.query<{ resource_type: string }>('SELECT DISTINCT resource_type FROM resources ORDER BY 1');
            })
          ).map((row) => row.resource_type);
    const job = await startReindexJob(options.repository, options.contextOf(request), types, request.url, (error) =>
      request.log.error({ err: error }, 'reindex failed'),
    );
    return reply
      .code(202)
      .header('Content-Location', `${options.baseUrl}fhir/R4/AsyncJob/${job.id}`)
      .type('application/fhir+json')
      .send({
        resourceType: 'OperationOutcome',
        id: 'accepted',
        issue: [
          {
            severity: 'information',
            code: 'informational',
            details: { text: `Reindexing ${types.join(', ') || 'nothing'}` },
          },
        ],
      });
  });

  app.get<{ Params: { id: string } }>('/fhir/R4/SearchParameter/:id/$index-status', async (request, reply) => {
    const ctx = options.contextOf(request);
    // 404 for another project's SearchParameter, 403 where the policy does not grant reading it.
    const parameter = await options.repository.transaction(
      (session) => session.read('SearchParameter', request.params.id),
      ctx.access,
    );
    const projectId = parameter.meta?.project;
    // From the AsyncJobs stored: the same answer on every process, whichever saved or runs it.
    const state = projectId
      ? await searchParameterIndexStatus(options.repository.db, projectId, parameter.id as string)
      : { status: 'none' as const, job: undefined };
    const job = state.job;
    const fromJob = (job?.output?.parameter ?? []).filter((p) => p.name === 'resourceType' || p.name === 'count');
    const answer: Parameters = {
      resourceType: 'Parameters',
      parameter: [
        { name: 'status', valueCode: state.status },
        ...(job ? [{ name: 'job', valueReference: { reference: `AsyncJob/${job.id}` } }] : []),
        ...fromJob,
        ...(job?.output?.parameter ?? []).filter((p) => p.name === 'error'),
      ],
    };
    if (job) reply.header('Content-Location', `${options.baseUrl}fhir/R4/AsyncJob/${job.id}`);
    return reply.type('application/fhir+json').send(answer);
  });
}
