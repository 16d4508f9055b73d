import type { AsyncJob, Resource, SearchParameter } from '@medplum/fhirtypes';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryFromString } from '../fhir/fhirOperations';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { reindexRoutes } from './reindexRoutes';
import { executeSearch } from './searchExecutor';
import { parseSearchRequest } from './searchRequest';
import { startSearchParameterSync } from './searchParameterSync';

const shared = 'shared-project';

export interface IndexJobDatabases {
  /** The database. */
  database: () => Database;
  /**
   * The same database as another server process sees it: on native PostgreSQL connections of their
   * own (a second pool); on PGlite, which is one process's, the same one.
   */
  otherProcess: () => Database;
  /**
   * Native PostgreSQL: opens one more pool of connections to the database, for a process that dies
   * in the middle of a job (its connections close); that replay runs only with it.
   */
  openProcess?: () => Promise<Database>;
}

interface Process {
  repository: Repository;
  stop: () => Promise<void>;
  /** For a process that died: its stop is no longer expected to succeed. */
  forget: () => void;
}

interface IndexingOptions {
  batchSize?: number;
  pauseMs?: number;
  leaseMs?: number;
  sweepMs?: number;
}

/**
 * The indexing jobs of SearchParameters a project saves (searchParameterIndexing.ts), across stops,
 * crashes and processes, replayed at the repository on a database of its own: (1) a server stopped
 * in the middle of a job left it unfinished for good, and the resources not yet indexed were never
 * indexed; (2) a deleted SearchParameter's index rows stayed in the index tables; (3) `queued` was
 * known only on the process that saved; and a job must run once however many processes start.
 * Each "process" is a Repository with its own registry and its own startSearchParameterSync, as
 * serverRuntime.ts starts them. Used by searchParameterIndexJobs.test.ts (embedded PGlite) and
 * searchParameterIndexJobs.native.test.ts (two connection pools on one native database).
 */
export function searchParameterIndexJobs(databases: IndexJobDatabases): void {
  const { database, otherProcess } = databases;
  const run = Math.random().toString(36).slice(2, 8);
  const ctx = (projectId: string): RequestContext => ({ projectId, author: { reference: 'Practitioner/alice' } });
  const processes = new Set<() => Promise<void>>();

  afterEach(async () => {
    for (const stop of processes) await stop();
    processes.clear();
  });

  async function startProcess(db: Database, indexing: IndexingOptions): Promise<Process> {
    const registry = definitionSearchParameters();
    const repository = new Repository(db, registry);
    const stopSync = await startSearchParameterSync(repository, db, registry, shared, () => undefined, indexing);
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= stopSync());
    processes.add(stop);
    return { repository, stop, forget: () => processes.delete(stop) };
  }

  const categoryParameter = (code: string): SearchParameter => ({
    resourceType: 'SearchParameter',
    url: `https://clinic.example/SearchParameter/${code}-${run}`,
    name: code.replace(/-/g, ''),
    status: 'active',
    description: 'Category code',
    code,
    base: ['Observation'],
    type: 'token',
    expression: 'Observation.category.coding.code',
  });
  const colourParameter = (code: string, base: string[] = ['Patient']): SearchParameter => ({
    resourceType: 'SearchParameter',
    url: `https://clinic.example/SearchParameter/${code}-${run}-${Math.random().toString(36).slice(2, 6)}`,
    name: code.replace(/-/g, ''),
    status: 'active',
    description: 'Favourite colour',
    code,
    base: base as SearchParameter['base'],
    type: 'token',
    expression: base
      .map((type) => `${type}.extension.where(url = 'https://clinic.example/favourite-colour').value`)
      .join(' | '),
  });
  const observation = (category = 'laboratory'): Resource => ({
    resourceType: 'Observation',
    status: 'final',
    code: { text: 'a lab result' },
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
    extension: [{ url: 'https://clinic.example/favourite-colour', valueCode: 'teal' }],
  });
  const patient = (colour: string): Resource => ({
    resourceType: 'Patient',
    extension: [{ url: 'https://clinic.example/favourite-colour', valueCode: colour }],
  });

  async function createMany(repository: Repository, projectId: string, resource: Resource, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await repository.create(ctx(projectId), resource)).id as string);
    return ids.sort();
  }

  /** The ids of the project's resources `Type?query` finds, by the index rows (the project's parameters). */
  async function search(repository: Repository, projectId: string, resourceType: string, query: string) {
    const request = parseSearchRequest(
      resourceType,
      queryFromString(`${query}&_count=1000`),
      repository.registry.forProject(projectId),
    );
    const result = await executeSearch(database(), request);
    return result.resources
      .filter((resource) => resource.meta?.project === projectId)
      .map((resource) => resource.id as string)
      .sort();
  }

  /** The project's AsyncJobs for a request (`SearchParameter/{id}/$reindex`), first saved first. */
  async function jobsOf(projectId: string, request: string): Promise<AsyncJob[]> {
    const rows = await database().query<{ content: AsyncJob }>(
      `SELECT content FROM resources
       WHERE resource_type = 'AsyncJob' AND project_id = $1 AND NOT deleted AND content->>'request' = $2
       ORDER BY content->>'requestTime', last_updated`,
      [projectId, request],
    );
    return rows.map((row) => row.content);
  }
  const reindexJob = async (projectId: string, parameterId: string) =>
    (await jobsOf(projectId, `SearchParameter/${parameterId}/$reindex`)).pop();
  const outputOf = (job: AsyncJob | undefined, name: string) => job?.output?.parameter?.find((p) => p.name === name);

  /** The project has no indexing job queued or running any more. */
  async function idle(projectId: string): Promise<void> {
    await vi.waitFor(
      async () => {
        const rows = await database().query<{ n: number }>(
          `SELECT count(*)::integer AS n FROM resources
           WHERE resource_type = 'AsyncJob' AND project_id = $1 AND NOT deleted
             AND content->>'status' IN ('accepted', 'active')`,
          [projectId],
        );
        expect(Number(rows[0].n)).toBe(0);
      },
      { timeout: 30_000, interval: 50 },
    );
  }

  /** The number of `table` rows of `code` of these resources. */
  async function indexRows(table: string, code: string, ids: readonly string[]): Promise<number> {
    const rows = await database().query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ${table} WHERE code = $1 AND resource_id = ANY($2::text[])`,
      [code, ids],
    );
    return Number(rows[0].n);
  }

  /** A job as the server before resumable jobs left it when it died while running (no claim, no progress). */
  async function jobLeftRunning(repository: Repository, projectId: string, parameter: Resource): Promise<AsyncJob> {
    return (await repository.create(ctx(projectId), {
      resourceType: 'AsyncJob',
      status: 'active',
      requestTime: new Date().toISOString(),
      request: `SearchParameter/${parameter.id}/$reindex`,
      output: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'searchParameter', valueString: `SearchParameter/${parameter.id}` },
          { name: 'version', valueString: parameter.meta?.versionId },
          { name: 'resourceType', valueString: 'Observation' },
          { name: 'count', valueInteger: 2 },
        ],
      },
    } as AsyncJob)) as AsyncJob;
  }

  describe('a job the server stopped in the middle of', () => {
    it('is resumed where it stopped by the next start, and the search then finds every resource', async () => {
      const project = `resume-${run}`;
      const first = await startProcess(database(), { batchSize: 1, pauseMs: 100 });
      const before = await createMany(first.repository, project, observation(), 16);
      const parameter = await first.repository.create(ctx(project), categoryParameter('qa-resume'));
      // Stopped once the job has recorded some progress (every fifth batch), well before its end.
      await vi.waitFor(
        async () =>
          expect(
            outputOf(await reindexJob(project, parameter.id as string), 'count')?.valueInteger,
          ).toBeGreaterThanOrEqual(5),
        { timeout: 20_000, interval: 20 },
      );
      await first.stop();
      const left = await reindexJob(project, parameter.id as string);
      expect(left?.status).not.toBe('completed');
      const foundBefore = await search(first.repository, project, 'Observation', 'qa-resume=laboratory');
      expect(foundBefore.length).toBeGreaterThan(0);
      expect(foundBefore.length).toBeLessThan(before.length);

      // A new process on the same database (a restart) finishes it.
      const second = await startProcess(database(), { batchSize: 1, pauseMs: 0 });
      await vi.waitFor(
        async () => expect((await reindexJob(project, parameter.id as string))?.status).toBe('completed'),
        { timeout: 30_000, interval: 50 },
      );
      const done = await reindexJob(project, parameter.id as string);
      // Each resource counted once: resumed past the ones done, not started over.
      expect(outputOf(done, 'count')?.valueInteger).toBe(before.length);
      expect(await search(second.repository, project, 'Observation', 'qa-resume=laboratory')).toEqual(before);
    });

    it('left running by a process that died is run again by the next start', async () => {
      const project = `crashed-${run}`;
      // Written as the server left it: the SearchParameter saved, its job running, nothing indexed yet.
      const unchecked = new Repository(database(), definitionSearchParameters());
      const before = await createMany(unchecked, project, observation(), 5);
      const parameter = await unchecked.create(ctx(project), categoryParameter('qa-crashed'));
      const job = await jobLeftRunning(unchecked, project, parameter);

      const restarted = await startProcess(database(), { batchSize: 2, pauseMs: 0 });
      await vi.waitFor(
        async () =>
          expect(await restarted.repository.read('AsyncJob', job.id as string)).toMatchObject({ status: 'completed' }),
        { timeout: 30_000, interval: 50 },
      );
      expect(await search(restarted.repository, project, 'Observation', 'qa-crashed=laboratory')).toEqual(before);
    });

    it('is closed once its SearchParameter was deleted, at the next start or while it runs', async () => {
      // Deleted while no server ran its job (left running by one that died).
      const project = `deleted-${run}`;
      const unchecked = new Repository(database(), definitionSearchParameters());
      await createMany(unchecked, project, observation(), 3);
      const parameter = await unchecked.create(ctx(project), categoryParameter('qa-deleted'));
      const job = await jobLeftRunning(unchecked, project, parameter);
      await unchecked.delete(ctx(project), 'SearchParameter', parameter.id as string);
      const restarted = await startProcess(database(), { batchSize: 2, pauseMs: 0 });
      await vi.waitFor(
        async () =>
          expect(await restarted.repository.read('AsyncJob', job.id as string)).toMatchObject({ status: 'cancelled' }),
        { timeout: 30_000, interval: 50 },
      );
      const closed = (await restarted.repository.read('AsyncJob', job.id as string)) as AsyncJob;
      expect(outputOf(closed, 'error')?.valueString).toBe(
        `SearchParameter/${parameter.id} was deleted before its indexing finished; the job is closed`,
      );

      // Deleted while its job runs: the job stops, and the rows it wrote are removed.
      const live = `deleted-live-${run}`;
      const server = await startProcess(database(), { batchSize: 1, pauseMs: 100 });
      const observations = await createMany(server.repository, live, observation(), 12);
      const running = await server.repository.create(ctx(live), categoryParameter('qa-deleted'));
      await vi.waitFor(async () => expect((await reindexJob(live, running.id as string))?.status).toBe('active'), {
        timeout: 20_000,
        interval: 20,
      });
      await server.repository.delete(ctx(live), 'SearchParameter', running.id as string);
      await idle(live);
      const stopped = await reindexJob(live, running.id as string);
      expect(stopped?.status).toBe('cancelled');
      expect(outputOf(stopped, 'count')?.valueInteger).toBeLessThan(observations.length);
      expect(await indexRows('search_token', 'qa-deleted', observations)).toBe(0);
    });
  });

  describe('the index rows of a SearchParameter that no longer applies', () => {
    it('are removed in the project that deleted or moved it, and nowhere else; a code another parameter defines keeps its rows', async () => {
      const clinic = `rows-${run}`;
      const other = `rows-other-${run}`;
      const legacy = `rows-legacy-${run}`;
      const server = await startProcess(database(), { batchSize: 2, pauseMs: 0 });
      const clinicPatients = await createMany(server.repository, clinic, patient('teal'), 3);
      const clinicObservations = await createMany(server.repository, clinic, observation(), 3);
      const otherPatients = await createMany(server.repository, other, patient('teal'), 2);
      const colour = await server.repository.create(ctx(clinic), colourParameter('qa-colour'));
      const site = await server.repository.create(ctx(clinic), colourParameter('qa-site', ['Patient', 'Observation']));
      await server.repository.create(ctx(other), colourParameter('qa-colour'));
      await idle(clinic);
      await idle(other);
      expect(await search(server.repository, clinic, 'Patient', 'qa-colour=teal')).toEqual(clinicPatients);
      expect(await indexRows('search_token', 'qa-colour', clinicPatients)).toBe(3);
      expect(await indexRows('search_token', 'qa-site', clinicObservations)).toBe(3);
      const otherRows = await indexRows('search_token', 'qa-colour', otherPatients);
      expect(otherRows).toBe(2);

      // Deleted: the clinic's rows of the code go, the other project's (same code, same type) stay.
      await server.repository.delete(ctx(clinic), 'SearchParameter', colour.id as string);
      await vi.waitFor(async () => expect(await indexRows('search_token', 'qa-colour', clinicPatients)).toBe(0), {
        timeout: 30_000,
        interval: 50,
      });
      await idle(clinic);
      expect(await indexRows('search_token', 'qa-colour', otherPatients)).toBe(otherRows);
      expect(await search(server.repository, other, 'Patient', 'qa-colour=teal')).toEqual(otherPatients);

      // Moved off a type: its rows there go, those of the type it keeps stay.
      await server.repository.update(ctx(clinic), { ...(site as SearchParameter), base: ['Patient'] });
      await idle(clinic);
      expect(await indexRows('search_token', 'qa-site', clinicObservations)).toBe(0);
      expect(await indexRows('search_token', 'qa-site', clinicPatients)).toBe(3);

      // Two of one code saved before duplicates were refused: deleting the one that answered leaves
      // the other's rows (made again with its expression), not none.
      const unchecked = new Repository(database(), server.repository.registry);
      const legacyPatients = await createMany(server.repository, legacy, patient('teal'), 2);
      const answering = await server.repository.create(ctx(legacy), colourParameter('qa-colour'));
      await unchecked.create(ctx(legacy), {
        ...colourParameter('qa-colour'),
        expression: "Patient.extension.where(url = 'https://clinic.example/favourite-colour').value",
      });
      await idle(legacy);
      await server.repository.delete(ctx(legacy), 'SearchParameter', answering.id as string);
      await idle(legacy);
      expect(await indexRows('search_token', 'qa-colour', legacyPatients)).toBe(2);
      expect(await search(server.repository, legacy, 'Patient', 'qa-colour=teal')).toEqual(legacyPatients);
    });
  });

  describe('every process', () => {
    it('answers $index-status from the database: queued and indexing are known on a process that did not save', async () => {
      const project = `status-${run}`;
      const saving = await startProcess(database(), { batchSize: 1, pauseMs: 100 });
      const another = await startProcess(otherProcess(), { batchSize: 1, pauseMs: 100 });
      const app = Fastify();
      await app.register(reindexRoutes, {
        repository: another.repository,
        baseUrl: 'http://127.0.0.1/',
        contextOf: () => ctx(project),
      });
      const statusOf = async (id: string) => {
        const answer = await app.inject({ method: 'GET', url: `/fhir/R4/SearchParameter/${id}/$index-status` });
        expect(answer.statusCode, answer.body).toBe(200);
        const parameters = (
          answer.json() as { parameter: { name: string; valueCode?: string; valueInteger?: number }[] }
        ).parameter;
        return {
          status: parameters.find((p) => p.name === 'status')?.valueCode,
          count: parameters.find((p) => p.name === 'count')?.valueInteger,
        };
      };
      try {
        const before = await createMany(saving.repository, project, observation(), 15);
        // Two saves of one project: the second waits for the first's job.
        const first = await saving.repository.create(ctx(project), categoryParameter('qa-first'));
        const second = await saving.repository.create(ctx(project), categoryParameter('qa-second'));
        expect((await statusOf(second.id as string)).status).toBe('queued');
        await vi.waitFor(async () => expect((await statusOf(first.id as string)).status).toBe('indexing'), {
          timeout: 20_000,
          interval: 20,
        });
        expect((await statusOf(second.id as string)).status).toBe('queued');
        await vi.waitFor(async () => expect((await statusOf(second.id as string)).status).toBe('completed'), {
          timeout: 30_000,
          interval: 50,
        });
        expect(await statusOf(first.id as string)).toEqual({ status: 'completed', count: before.length });
        expect(await statusOf(second.id as string)).toEqual({ status: 'completed', count: before.length });
      } finally {
        await app.close();
      }
    });

    it('runs a job once when two processes start together on the database', async () => {
      const project = `once-${run}`;
      const first = await startProcess(database(), { batchSize: 1, pauseMs: 100 });
      const before = await createMany(first.repository, project, observation(), 12);
      const parameter = await first.repository.create(ctx(project), categoryParameter('qa-once'));
      await vi.waitFor(async () => expect((await reindexJob(project, parameter.id as string))?.status).toBe('active'), {
        timeout: 20_000,
        interval: 20,
      });
      await first.stop();
      const jobId = (await reindexJob(project, parameter.id as string))?.id as string;
      const history = async () =>
        (
          await database().query<{ content: AsyncJob }>(
            `SELECT content FROM resource_history WHERE resource_type = 'AsyncJob' AND id = $1 ORDER BY last_updated`,
            [jobId],
          )
        ).map((row) => row.content);
      const versionsBefore = (await history()).length;

      const [a, b] = await Promise.all([
        startProcess(database(), { batchSize: 1, pauseMs: 20 }),
        startProcess(otherProcess(), { batchSize: 1, pauseMs: 20 }),
      ]);
      await vi.waitFor(
        async () => expect((await reindexJob(project, parameter.id as string))?.status).toBe('completed'),
        { timeout: 30_000, interval: 50 },
      );
      await Promise.all([a.stop(), b.stop()]);
      const after = (await history()).slice(versionsBefore);
      // One process claimed it, and only it wrote it from then on; it completed once, counting each resource once.
      const claimants = new Set(
        after.map((job) => outputOf(job, 'claim')?.part?.find((p) => p.name === 'by')?.valueString).filter(Boolean),
      );
      expect(claimants.size).toBe(1);
      expect(after.filter((job) => job.status === 'completed')).toHaveLength(1);
      expect(outputOf(after[after.length - 1], 'count')?.valueInteger).toBe(before.length);
      expect(await search(a.repository, project, 'Observation', 'qa-once=laboratory')).toEqual(before);
    });

    const openProcess = databases.openProcess;
    if (openProcess) {
      it('takes over the job of a process that died once its claim has run out', async () => {
        const project = `takeover-${run}`;
        const dying = await openProcess();
        const first = await startProcess(dying, { batchSize: 1, pauseMs: 100, leaseMs: 1_000, sweepMs: 100 });
        const before = await createMany(first.repository, project, observation(), 12);
        const parameter = await first.repository.create(ctx(project), categoryParameter('qa-takeover'));
        await vi.waitFor(
          async () =>
            expect(
              outputOf(await reindexJob(project, parameter.id as string), 'count')?.valueInteger,
            ).toBeGreaterThanOrEqual(5),
          { timeout: 20_000, interval: 20 },
        );
        // The process dies: its connections are gone, its claim stays until its lease runs out.
        const survivor = await startProcess(database(), { batchSize: 1, pauseMs: 0, leaseMs: 1_000, sweepMs: 100 });
        first.forget();
        await dying.close();
        await vi.waitFor(
          async () => expect((await reindexJob(project, parameter.id as string))?.status).toBe('completed'),
          { timeout: 30_000, interval: 50 },
        );
        expect(await search(survivor.repository, project, 'Observation', 'qa-takeover=laboratory')).toEqual(before);
        await first.stop().catch(() => undefined);
      });
    }
  });
}
