import { Readable } from 'node:stream';
import type { Group, Resource } from '@medplum/fhirtypes';
import type { BinaryStorage } from '../../binary';
import { FhirError } from '../../fhir/fhirError';
import type { Repository, RequestContext } from '../../fhir/repository';
import { withoutProtectedFields } from '../../fhir/protectedFields';
import { parseSearchRequest, type QueryParams } from '../../search/searchRequest';
import { liftStatementTimeout } from '../../storage/liftStatementTimeout';
import type { ExportJobStore, ExportOutput } from './exportJobStore';

/** What is exported: every readable resource, the patients' compartments, or a Group's members'. */
export type ExportScope = { level: 'system' } | { level: 'patient' } | { level: 'group'; groupId: string };

export interface ExportRequest {
  jobId: string;
  scope: ExportScope;
  types?: string[];
  since?: string;
  /** The caller's context, access guard included: the job reads exactly what the caller may read. */
  ctx: RequestContext;
  sharedProjectId: string;
}

export interface ExportEnvironment {
  repository: Repository;
  storage: BinaryStorage;
  store: ExportJobStore;
  fhirBase: string;
}

const pageSize = 500;
export const ndjsonContentType = 'application/fhir+ndjson';

class ExportCancelled extends Error {}

/**
 * Runs one export job to its end: one NDJSON file per resource type that has anything to export,
 * each page read in its own short transaction under the caller's access guard (so the database is
 * never held for the whole export). Progress and the result go to the job's row.
 */
export async function runExport(env: ExportEnvironment, request: ExportRequest, signal: AbortSignal): Promise<void> {
  const { repository, store } = env;
  const access = request.ctx.access;
  try {
    const compartments = await compartmentsOf(env, request);
    const types = await exportTypes(env, request, compartments);
    const output: ExportOutput[] = [];
    for (const [index, type] of types.entries()) {
      let count = 0;
      // Each page records progress (and so shows the job is alive); a job cancelled from any
      // process stops at its next page.
      const report = async () => {
        const progress = `Exporting ${type} (${index + 1} of ${types.length} types), ${count} resources so far`;
        if (signal.aborted || !(await store.progress(request.jobId, progress))) throw new ExportCancelled();
      };
      const lines = async function* () {
        for (let offset = 0; ; offset += pageSize) {
          await report();
          const page = await repository.transaction(async (session) => {
            // A page at offset n reads the n rows before it: minutes near the end of 1M of one type.
            await liftStatementTimeout(session.tx);
            const query: QueryParams = { _count: String(pageSize), _offset: String(offset), _sort: '_id' };
            if (request.since) query._lastUpdated = `ge${request.since}`;
            const search = parseSearchRequest(type, query, session.registry);
            if (compartments) search.compartments = compartments;
            return session.search(search);
          }, access);
          for (const resource of page.resources) {
            if (resource.meta?.project === request.sharedProjectId) continue;
            count++;
            yield `${JSON.stringify(withoutProtectedFields(resource))}\n`;
          }
          if (!page.hasMore) return;
        }
      };
      const staged = await env.storage.stage(Readable.from(lines()), Number.MAX_SAFE_INTEGER);
      if (count === 0) {
        await env.storage.discard(staged);
        continue;
      }
      // The file belongs to the job, not to the project: it holds what this caller may read, which
      // is not what every member who may read Binaries may read (see exportFile).
      const file = exportFile(request.jobId, type);
      await env.storage.commit(staged, file.folder, file.name);
      output.push({ type, url: exportFileUrl(env.fhirBase, request.jobId, type), count });
    }
    if (!(await store.complete(request.jobId, output))) throw new ExportCancelled();
  } catch (error) {
    // A cancelled or failed job's files are never handed out: nothing should keep them either.
    await env.storage.removeAll(exportFolder(request.jobId)).catch(() => undefined);
    if (error instanceof ExportCancelled || signal.aborted) return;
    const message = error instanceof FhirError || error instanceof Error ? error.message : String(error);
    console.error(`bulk export ${request.jobId} failed:`, message);
    await store.fail(request.jobId, message).catch(() => undefined);
  }
}

/**
 * Where a job's NDJSON file of one type lives in BinaryStorage: a folder of the job (no Binary
 * resource has such an id: theirs are server-assigned UUIDs), one file per type. The files are
 * not Binaries of the project on purpose: an export holds what its caller may read, so a Binary
 * would hand it to every member whose policy grants Binary (hidden fields, other patients,
 * criteria they are held to), and would not be readable by a patient, whose compartment holds no
 * Binary without a securityContext. They are downloaded from the job (exportRoutes), by those who
 * may see the job.
 */
export function exportFile(jobId: string, type: string): { folder: string; name: string } {
  return { folder: exportFolder(jobId), name: type };
}

export function exportFolder(jobId: string): string {
  return `export-${jobId}`;
}

/** The download URL of a job's file of one type, as the manifest lists it. */
export function exportFileUrl(fhirBase: string, jobId: string, type: string): string {
  return `${fhirBase}bulkdata/export/${jobId}/${type}.ndjson`;
}

/** For patient and group exports: the compartments (`Patient/id`) whose resources are exported. */
async function compartmentsOf(env: ExportEnvironment, request: ExportRequest): Promise<string[] | undefined> {
  const { scope } = request;
  if (scope.level === 'system') return undefined;
  return env.repository.transaction(async (session) => {
    // Paging through every patient of a large project: the later pages each read all before them.
    await liftStatementTimeout(session.tx);
    if (scope.level === 'group') {
      const group = (await session.read('Group', scope.groupId)) as Group;
      return (group.member ?? [])
        .map((member) => member.entity?.reference ?? '')
        .filter((reference) => /^Patient\/[A-Za-z0-9\-.]{1,64}$/.test(reference));
    }
    const patients: string[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = await session.search(
        parseSearchRequest('Patient', { _count: '1000', _offset: String(offset), _elements: 'id' }, session.registry),
      );
      patients.push(...page.resources.map((patient: Resource) => `Patient/${patient.id}`));
      if (!page.hasMore) return patients;
    }
  }, request.ctx.access);
}

/** The types to export: `_type`, else every type the caller's project has (in the compartments, if any) but Binary. */
async function exportTypes(
  env: ExportEnvironment,
  request: ExportRequest,
  compartments: string[] | undefined,
): Promise<string[]> {
  const access = request.ctx.access;
  if (compartments?.length === 0) return [];
  const candidates =
    request.types ??
    (
      await env.repository.db.transaction(async (tx) => {
        // One scan of every resource (against every exported patient's compartment): long at 1M resources.
        await liftStatementTimeout(tx);
        return tx.query<{ resource_type: string }>(
          `SELECT DISTINCT resource_type FROM resources
           WHERE NOT deleted AND project_id IS DISTINCT FROM $1
             AND ($2::text IS NULL OR project_id = $2)
             AND ($3::text[] IS NULL OR compartments && $3::text[])`,
          [request.sharedProjectId, access?.superAdmin ? null : request.ctx.projectId, compartments ?? null],
        );
      })
    )
      .map((row) => row.resource_type)
      // Binary content is not in the resource: Binaries only on request.
      .filter((type) => type !== 'Binary');
  return [...candidates].sort().filter((type) => {
    try {
      access?.checkInteraction(type, 'search');
      return true;
    } catch (error) {
      // A type the caller's policy does not grant is not exported (and not an error).
      if (error instanceof FhirError && error.status === 403) return false;
      throw error;
    }
  });
}
